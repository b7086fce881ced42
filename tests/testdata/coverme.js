// Fixture of the coverage tests: coverlib.js loads after the first tick, so that coverage
// started while paused at this file's first line sees it compiled (V8 covers code compiled after
// the start).
setTimeout(() => console.log("used", require("./coverlib.js").used(2)), 10);
setInterval(() => {}, 1000);

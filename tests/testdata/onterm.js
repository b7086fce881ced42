// Fixture of the stop tests: argv[2] says what SIGTERM does. "ignore": nothing (only SIGKILL
// ends it); "exit": a clean exit 0; none: node's default, death by SIGTERM.
const how = process.argv[2];
if (how === "ignore") process.on("SIGTERM", () => console.log("SIGTERM ignored"));
if (how === "exit") process.on("SIGTERM", () => { console.log("bye"); process.exit(0); });
console.log("ready");
setInterval(() => {}, 1000);

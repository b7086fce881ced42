// Exits cleanly after one line.
console.log("all good");

// Fixture of the on-load test: runs a script with vm, which pauses before it runs.
require("vm").runInThisContext("globalThis.loaded = 1;", { filename: "loaded.js" });
console.log("loaded", globalThis.loaded);

// Prints the node flags it runs with (traced's own inspector flags left out).
console.log("flags", process.execArgv.filter((a) => !a.startsWith("--inspect") && a !== "--enable-source-maps" && a !== "--no-force-async-hooks-checks").join(" "));

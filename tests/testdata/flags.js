// Prints the node flags it runs with, traced's own left out (inspector flags, its preload).
const own = (a, i, all) => /^--(inspect|enable-source-maps|no-force-async-hooks-checks)/.test(a) ||
  a.endsWith("preload.cjs") || (a === "--require" && String(all[i + 1]).endsWith("preload.cjs"));
console.log("flags", process.execArgv.filter((a, i, all) => !own(a, i, all)).join(" "));

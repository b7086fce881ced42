// Prints N console lines (default 50000), each padded to W characters (default: short).
const n = Number(process.argv[2] || 50000);
const pad = "x".repeat(Number(process.argv[3] || 0));
for (let i = 0; i < n; i++) console.log("line", i, pad);

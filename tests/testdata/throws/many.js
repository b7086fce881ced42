// Throws and catches N exceptions in user code (default 1000); prints how long the loop took.
const n = Number(process.argv[2] || 1000);
const start = process.hrtime.bigint();
let caught = 0;
for (let i = 0; i < n; i++) {
  try {
    throw new Error("boom " + i);
  } catch {
    caught++;
  }
}
console.log("caught", caught, "ms", Number(process.hrtime.bigint() - start) / 1e6);

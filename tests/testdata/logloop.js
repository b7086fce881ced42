// Fixture of the logpoint tests, which name its line numbers: edit with care.
const n = Number(process.argv[2] || 10);
let sum = 0;
let last = 0;
for (let i = 1; i <= n; i++) {
  sum += i;
  last = i;
}
console.log("sum", sum, "last", last);

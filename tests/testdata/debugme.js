// Fixture of the debugger tests, which name its line numbers: edit with care.
function square(n) {
  const result = n * n;
  return result;
}
function work(i) {
  const label = "call " + i;
  const value = square(i);
  console.log(label, value);
  return value;
}
let total = 0;
for (let i = 1; i <= 5; i++) {
  total += work(i);
}
console.log("total", total);

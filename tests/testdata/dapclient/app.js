// The DAP client test's main program: a loop calling a function, then one line of output.
function add(a, b) {
  let sum = a + b;
  return sum;
}
let total = 0;
for (let i = 0; i < 3; i++) {
  total = add(total, i);
}
const obj = { name: "traced", items: [1, 2, 3] };
console.log("total", total, obj.name);

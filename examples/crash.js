// An example to trace: it logs twice, then fails on a missing field.
const args = process.argv.slice(2);
const order = { id: Number(args[args.indexOf("--order") + 1] || 7), lines: [{ sku: "A1", qty: 2 }] };
console.log("processing order", order.id);
console.log("lines", order.lines);
function total(o) {
  return o.lines.reduce((sum, l) => sum + l.qty * o.prices[l.sku], 0);
}
console.log("total", total(order));

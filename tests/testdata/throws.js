// Logs twice, then throws: the canonical failing trace.
const order = { id: 42, items: ["a", "b"] };
console.log("starting", order.id);
console.warn("about to process", order);
function process(o) {
  return o.missing.total; // TypeError: cannot read properties of undefined
}
process(order);

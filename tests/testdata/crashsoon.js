// Fixture of launch --catch: it throws, uncaught, as it starts.
const order = { items: [{ sku: "a" }] };
function total(o) {
  return o.items.reduce((sum, item) => sum + item.price.amount, 0);
}
console.log("total", total(order));

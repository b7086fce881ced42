// Handles its own uncaught exceptions: prints and exits 1, so node never reports one.
process.on("uncaughtException", (err) => {
  console.error("fatal:", err.message);
  process.exit(1);
});
function charge(order) {
  const amount = order.qty * order.price;
  if (!(amount > 0)) {
    throw new TypeError(`bad amount for order ${order.id}`);
  }
  return amount;
}
charge({ id: 7, qty: 2, price: undefined });

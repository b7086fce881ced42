// Fixture of the native TypeScript tests: node 22.18+ runs this file itself, its types erased.
interface Order { id: number; qty: number }
function total(o: Order, price: number): number {
  const sum: number = o.qty * price;
  return sum;
}
const order: Order = { id: 7, qty: 3 };
console.log("total", total(order, 2));

// A TypeScript program the tsx CLI runs (in a child node process of its own).
interface Order { id: number; qty: number }
function total(o: Order): number {
  const sum: number = o.qty * 3;
  return sum;
}
const orders: Order[] = [{ id: 1, qty: 2 }];
for (const o of orders) {
  console.log("total", total(o));
}

// app totals two batches of orders; the second batch is bad unless argv[2] is "good".
import { validate, Order } from "./service";

declare const process: { argv: string[] };

function total(orders: Order[]): number {
  let sum = 0;
  for (const o of orders) {
    const doubled = validate(o);
    sum += doubled;
  }
  return sum;
}

function main(): void {
  const good: Order[] = [{ id: "a", qty: 1 }, { id: "b", qty: 2 }];
  const first = total(good);
  console.log(`total ${first}`);
  if (process.argv[2] === "good") {
    return;
  }
  const bad: Order[] = [{ id: "c", qty: 0 }];
  const second = total(bad);
  console.log(`never ${second}`);
}

main();

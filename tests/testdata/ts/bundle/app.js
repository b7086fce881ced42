"use strict";

// src/service.ts
function validate(order) {
  if (order.qty <= 0) {
    throw new Error(`invalid quantity ${order.qty} for order ${order.id}`);
  }
  return order.qty * 2;
}

// src/app.ts
function total(orders) {
  let sum = 0;
  for (const o of orders) {
    const doubled = validate(o);
    sum += doubled;
  }
  return sum;
}
function main() {
  const good = [{ id: "a", qty: 1 }, { id: "b", qty: 2 }];
  const first = total(good);
  console.log(`total ${first}`);
  if (process.argv[2] === "good") {
    return;
  }
  const bad = [{ id: "c", qty: 0 }];
  const second = total(bad);
  console.log(`never ${second}`);
}
main();
//# sourceMappingURL=app.js.map

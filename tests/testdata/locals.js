// locals.js: locals holding small arrays and objects, and a closure over a counter and an
// arrow's this; the inspect tests stop at the debugger statement.
class Shop {
  constructor() {
    this.name = "corner";
    this.count = 0;
    this.bump = () => ++this.count + step; // captures this and step
  }
}
const step = 2;
function price(n) {
  const tiers = [{ min: 1, pct: 0 }, { min: 50, pct: 5 }, { min: 100, pct: 10 }, { min: 500, pct: 15 }];
  const cfg = { name: "std", tiers, limits: { low: 1, high: 9 } };
  const shop = new Shop();
  const bump = shop.bump;
  debugger;
  return n * tiers.length + cfg.limits.low + bump();
}
setInterval(() => price(1), 100);

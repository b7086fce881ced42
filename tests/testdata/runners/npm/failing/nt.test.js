// node --test: one failing test between passing ones that expect throws (tests/failures_test.go).
const test = require("node:test");
const assert = require("node:assert");
const { parse, total } = require("./lib.js");
test.describe("cart", () => {
  test.it("refuses non-strings", () => { assert.throws(() => parse(5), TypeError); });
  test.it("totals", () => {
    const items = [{ price: 2, qty: 3 }, { price: 5, qty: 1 }];
    const sum = total(items);
    assert.strictEqual(sum, 11);
  });
  test.it("rejects later", async () => { await assert.rejects(async () => parse(null), TypeError); });
});

// A node:test file with one passing and one failing test.
const test = require("node:test");
const assert = require("node:assert");
test("adds", () => {
  const sum = 1 + 1;
  assert.strictEqual(sum, 2);
});
test("fails", () => {
  const product = 2 * 2;
  assert.strictEqual(product, 5);
});

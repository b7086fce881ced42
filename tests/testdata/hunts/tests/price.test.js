const test = require("node:test");
const assert = require("node:assert");
const { withTax } = require("./price.js");

test("no tax", () => {
  assert.strictEqual(withTax(10, 0), 10);
});

test("tax of 20%", () => {
  assert.strictEqual(withTax(10, 0.2), 12);
});

test("a negative net throws", () => {
  assert.throws(() => { throw new RangeError("negative"); }, RangeError);
});

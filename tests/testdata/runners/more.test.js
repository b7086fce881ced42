// A second node:test file: one passing test.
const test = require("node:test");
const assert = require("node:assert");
test("subtracts", () => {
  const diff = 3 - 1;
  assert.strictEqual(diff, 2);
});

// Fixture of TestNodeTestFolder, which names its line numbers: edit with care.
const test = require("node:test");
const assert = require("node:assert");
test("multiplies", () => {
  const product = 2 * 2;
  assert.strictEqual(product, 5);
});

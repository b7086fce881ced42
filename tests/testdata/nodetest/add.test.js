// Fixture of TestNodeTestFolder: a node:test file whose test passes.
const test = require("node:test");
const assert = require("node:assert");
test("adds", () => {
  assert.strictEqual(1 + 1, 2);
});

// A mocha file: one test passes, one fails (its assertion on line 10).
const assert = require("node:assert");
const { add, scale } = require("../src/math.js");
describe("math", () => {
  it("adds", () => {
    assert.strictEqual(add(1, 2), 3);
  });
  it("scales", () => {
    const got = scale(2, 3);
    assert.strictEqual(got, 7);
  });
});

// A second jest file: one test passes, one fails (its assertion on line 9).
const { add, scale } = require("../src/math.js");
describe("more", () => {
  test("adds", () => {
    expect(add(1, 2)).toBe(3);
  });
  test("scales", () => {
    const got = scale(2, 3);
    expect(got).toBe(7);
  });
});

// jest: one failing test between passing ones that expect throws (tests/failures_test.go).
const { parse, total } = require("./lib.js");
describe("cart", () => {
  test("refuses non-strings", () => { expect(() => parse(5)).toThrow(TypeError); });
  test("totals", () => {
    const items = [{ price: 2, qty: 3 }, { price: 5, qty: 1 }];
    const sum = total(items);
    expect(sum).toBe(11);
  });
  test("rejects later", async () => { await expect(async () => parse(null)).rejects.toThrow(TypeError); });
});

// A vitest file: one test passes, one fails (its assertion on line 10).
import { describe, test, expect } from "vitest";
import { add, scale } from "../src/math.js";
describe("math", () => {
  test("adds", () => {
    expect(add(1, 2)).toBe(3);
  });
  test("scales", () => {
    const got = scale(2, 3);
    expect(got).toBe(7);
  });
});

// vitest: one failing test between passing ones that expect throws (tests/failures_test.go).
import { describe, it, expect } from "vitest";
import { parse, total } from "./lib.js";
describe("cart", () => {
  it("refuses non-strings", () => { expect(() => parse(5)).toThrow(TypeError); });
  it("totals", () => {
    const items = [{ price: 2, qty: 3 }, { price: 5, qty: 1 }];
    const sum = total(items);
    expect(sum).toBe(11);
  });
  it("rejects later", async () => { await expect(async () => parse(null)).rejects.toThrow(TypeError); });
});

// A jest file whose jest.mock call babel-jest hoists above the require: jest runs it
// transformed, under its own path, with an inline source map.
const { scale } = require("../src/math.js");
const log = require("../src/greet.js");

jest.mock("../src/greet.js", () => ({ greet: () => "hi" }));

describe("scale", () => {
  test("doubles", () => {
    const got = scale(2, 3);
    expect(got).toBe(7);
  });
});

// Calls a library that throws and catches inside itself, then throws and catches its own error.
const { parseOr } = require("./vendor.js");
const config = parseOr("{not json", { retries: 2 });
try {
  if (config.retries < 3) throw new RangeError(`retries ${config.retries} < 3`);
} catch (e) {
  console.log("caught", e.message);
}

// Throws a RangeError, a TypeError and a RangeError, catching each.
function risky(kind) {
  if (kind === "range") throw new RangeError("out of range");
  throw new TypeError("not a thing");
}
for (const kind of ["range", "type", "range"]) {
  try {
    risky(kind);
  } catch (e) {
    console.log("caught", e.message);
  }
}

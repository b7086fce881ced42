// The code under test of the failing-suite fixtures: parse refuses non-strings on purpose (the
// passing tests expect that throw); total has a planted bug (qty - 1).
function parse(s) {
  if (typeof s !== "string") throw new TypeError("parse wants a string, got " + typeof s);
  return JSON.parse(s);
}
function total(items) {
  let sum = 0;
  for (const it of items) sum += it.price * (it.qty - 1);
  return sum;
}
module.exports = { parse, total };

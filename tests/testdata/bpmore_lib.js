// Fixture module of the breakpoint tests.
exports.twice = function twice(n) {
  const r = n * 2;
  return r;
};

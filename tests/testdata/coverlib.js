// Fixture module of the coverage tests, which name its line numbers: edit with care.
function used(n) {
  return n * 2;
}
function neverCalled(x) {
  const y = x + 1;
  return y * 3;
}
module.exports = { used, neverCalled };

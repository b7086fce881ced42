// The code under test of the runner fixtures.
function add(a, b) {
  const sum = a + b;
  return sum;
}
function scale(x, k) {
  const scaled = x * k;
  return scaled;
}
module.exports = { add, scale };

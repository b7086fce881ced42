// Fixture of the hot-patch tests, copied into a temp workspace and rewritten there.
function add(a, b) {
  return a - b;
}
setInterval(() => {
  console.log("sum " + add(2, 3));
}, 20);

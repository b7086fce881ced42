// Fixture of the main-script coverage test: coverage starts at this file's first line.
function used(n) {
  return n * 2;
}
function neverCalled(n) {
  const twice = n * 2;
  return twice + 1;
}
console.log("used", used(2));
setInterval(() => {}, 1000);

// Fixture of the async stack tests, which name its line numbers: edit with care.
function delay(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }
async function inner() {
  await delay(5);
  return 1;
}
async function outer() {
  await inner();
}
outer();

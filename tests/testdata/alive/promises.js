'use strict';
// Fixture of the creation-stacks benchmark: promise-heavy, a million awaits.
async function step(i) {
  return i + 1;
}
(async function main() {
  let n = 0;
  for (let i = 0; i < 1e6; i++) n = await step(n);
  if (n !== 1e6) throw new Error('lost count');
})();

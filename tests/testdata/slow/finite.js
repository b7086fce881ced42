'use strict';
// Fixture of the slow tests: CPU-bound work for 3 s of wall time, then the end: a diagnosis
// until the program ends answers with it.
function mix(x) {
  let s = 0;
  for (let i = 0; i < 40; i++) s = (s + x * i) % 1000003;
  return s;
}
console.log('ready');
const until = Date.now() + 3000;
let total = 0;
for (let i = 0; Date.now() < until; i++) total += mix(i);
console.log('done', total > 0);

'use strict';
// Fixture of the slow tests: CPU-bound work for 3 s of wall time, then the end: a diagnosis
// until the program ends answers with it. The loop is in a function of its own: code at a
// module's top level runs in node's loader's wrapper, and its samples are the loader's.
function mix(x) {
  let s = 0;
  for (let i = 0; i < 40; i++) s = (s + x * i) % 1000003;
  return s;
}
function work(ms) {
  const until = Date.now() + ms;
  let total = 0;
  for (let i = 0; Date.now() < until; i++) total += mix(i);
  return total;
}
console.log('ready');
console.log('done', work(3000) > 0);

'use strict';
// Fixture of the slow tests: V8 inlines mix into run, so mix's ticks sit on run's node; the
// answer must name mix at its own line (4). Runs until stopped.
function mix(x) {
  let s = 0;
  for (let i = 0; i < 40; i++) s = (s + x * i) % 1000003;
  return s;
}
function run(n) {
  let total = 0;
  for (let i = 0; i < n; i++) total += mix(i);
  return total;
}
function tick() {
  run(1e6);
  setImmediate(tick);
}
globalThis.run = run; // for the CPU profile test's eval
console.log('ready');
tick();

'use strict';
// Fixture of the slow tests: allocation churn, objects kept long enough to be promoted, then
// dropped. Runs until stopped.
let keep = [];
function churn() {
  for (let i = 0; i < 20000; i++) keep.push({ i, s: 'x' + i, a: new Array(64).fill(i) });
  if (keep.length > 100000) keep = [];
  setImmediate(churn);
}
console.log('ready');
churn();

'use strict';
// Allocation churn: objects kept long enough to be promoted, then dropped, so that both
// young and old generations collect.
let keep = [];
const until = Date.now() + 1500;
while (Date.now() < until) {
  for (let i = 0; i < 1000; i++) keep.push({ i, s: 'x' + i, a: new Array(64).fill(i) });
  if (keep.length > 100000) keep = [];
}
console.log('kept', keep.length);

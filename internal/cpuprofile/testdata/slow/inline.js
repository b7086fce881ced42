'use strict';
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
console.log(run(Number(process.argv[2] || 5e6)));

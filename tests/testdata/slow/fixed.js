'use strict';
// Fixture of the sampling benchmark: a fixed amount of CPU work (inline.js's), then the end.
function mix(x) {
  let s = 0;
  for (let i = 0; i < 40; i++) s = (s + x * i) % 1000003;
  return s;
}
let total = 0;
for (let i = 0; i < 3e6; i++) total += mix(i);
console.log(total);

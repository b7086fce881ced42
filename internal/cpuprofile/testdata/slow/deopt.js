'use strict';
// A function optimised for numbers, then called with what makes V8 deoptimise it.
function add(a, b) {
  return a + b;
}
let r = 0;
for (let i = 0; i < 3e6; i++) r = add(r, i) % 1000;
for (let i = 0; i < 3e6; i++) r = add(String(i % 10), r).length;
console.log(r);

'use strict';
function add(a, b) {
  return a + b;
}
let r = 0;
for (let i = 0; i < 3e6; i++) r = add(r, i) % 1000;
for (let i = 0; i < 3e6; i++) r = add(String(r).length, i % 7) ;
console.log(r);

'use strict';
// Fixture of the slow tests (run from a temporary root whose node_modules holds slowparse, a
// copy of internal/cpuprofile/testdata/slow/dep): a catastrophically backtracking pattern in a
// dependency. Runs until stopped.
const { matches } = require('slowparse');

let found = 0;
function chunk() {
  for (let i = 0; i < 20; i++) if (matches('a'.repeat(20) + '!')) found++;
  setImmediate(chunk);
}
console.log('ready');
chunk();

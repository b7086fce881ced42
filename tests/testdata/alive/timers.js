'use strict';
// Fixture of the creation-stacks benchmark: timer-heavy, 200,000 timers made and fired, 1,000 at
// a time, and as many immediates.
let left = 200;
function batch() {
  if (left-- === 0) return;
  let pending = 1000;
  for (let i = 0; i < 1000; i++) {
    setTimeout(() => {
      setImmediate(() => {
        if (--pending === 0) batch();
      });
    }, 0);
  }
}
batch();

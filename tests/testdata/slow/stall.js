'use strict';
// Fixture of the slow tests: an interval whose callback blocks the event loop for 200 ms each
// time it runs (line 5). Runs until stopped.
function blockFor(ms) {
  const until = Date.now() + ms;
  let n = 0;
  while (Date.now() < until) n++;
  return n;
}
setInterval(() => {
  blockFor(200);
}, 400);
console.log('ready');

'use strict';
// An interval whose callback blocks the event loop for 200 ms each time it runs.
function blockFor(ms) {
  const until = Date.now() + ms;
  let n = 0;
  while (Date.now() < until) n++;
  return n;
}
let runs = 0;
const timer = setInterval(() => {
  blockFor(200);
  if (++runs === 4) clearInterval(timer);
}, 500);

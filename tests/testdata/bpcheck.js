// bpcheck.js: top-level code that runs once, then a function called on a timer, in the main
// thread and in one worker running this same file; the breakpoint tests set points on both.
const { Worker, isMainThread } = require("node:worker_threads");
const tiers = [{ min: 1, pct: 0 }, { min: 50, pct: 5 }];
function tick(n) {
  const total = n * tiers.length;
  return total;
}
if (isMainThread) {
  new Worker(__filename);
} else {
  console.log("worker up");
}
setInterval(() => tick(1), 50);

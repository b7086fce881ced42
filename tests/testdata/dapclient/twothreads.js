// The DAP client test's two threads: a worker stops at a breakpoint while the main thread ticks.
const { Worker, isMainThread } = require("node:worker_threads");
function greet(who) {
  console.log("hello from", who);
}
if (!isMainThread) {
  greet("worker");
} else {
  let ticks = 0;
  const tick = setInterval(() => {
    ticks++;
  }, 10);
  new Worker(__filename).on("exit", () => clearInterval(tick));
}

// Fixture of the worker tests: the main thread starts a worker, which starts a nested one; each
// logs, the nested one meets a debugger statement (a pause in debug mode only) and throws (uncaught
// in its thread), and the main thread reports both exits.
const { Worker, isMainThread, workerData } = require("node:worker_threads");
if (isMainThread) {
  console.log("main: starting worker");
  const w = new Worker(__filename, { workerData: { depth: 1 } });
  w.on("exit", (code) => console.log("main: worker exited", code));
} else if (workerData.depth === 1) {
  console.log("worker: hello");
  const nested = new Worker(__filename, { workerData: { depth: 2 } });
  nested.on("error", (e) => console.log("worker: nested failed:", e.message));
} else {
  console.log("nested: hello");
  debugger;
  throw new Error("nested: boom");
}

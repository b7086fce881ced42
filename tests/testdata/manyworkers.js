// Fixture of the many-workers test: the main thread starts N workers (argv[2], default 100) and
// then freezes for argv[3] ms (default 2000) while they start, as a busy program does; each
// worker reports that it ran, and the main thread says how many did once all have exited.
const { Worker, isMainThread, parentPort } = require("node:worker_threads");
if (isMainThread) {
  const n = Number(process.argv[2] || 100);
  let ran = 0;
  let exited = 0;
  for (let i = 0; i < n; i++) {
    const w = new Worker(__filename);
    w.on("message", () => ran++);
    w.on("exit", () => {
      if (++exited === n) console.log(`ran ${ran} of ${n}`);
    });
  }
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.argv[3] || 2000));
} else {
  parentPort.postMessage("ran");
}

// Hunt fixture: the main thread sums squares in a worker; the worker's loop skips the last
// number (i < n - 1), so the answer is short by n*n.
const { Worker, isMainThread, parentPort, workerData } = require("node:worker_threads");

function sumSquares(n) {
  let sum = 0;
  for (let i = 1; i < n; i++) {
    sum += i * i;
  }
  return sum;
}

if (isMainThread) {
  const w = new Worker(__filename, { workerData: { n: 4 } });
  w.on("message", (sum) => console.log("sum of squares 1..4:", sum, sum === 30 ? "ok" : "WRONG"));
} else {
  parentPort.postMessage(sumSquares(workerData.n));
}

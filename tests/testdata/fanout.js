// Fixture of the process-tree start benchmark: starts 4 worker threads and forks 4 children at
// once; each says hello as its first statement, then all stay until the main thread ends them.
const { Worker, isMainThread } = require("node:worker_threads");
const { fork } = require("node:child_process");
if (process.argv[2] === "child") {
  console.log("child hello", process.pid);
  process.on("message", () => process.exit(0));
} else if (!isMainThread) {
  console.log("worker hello");
  setInterval(() => {}, 1000);
} else {
  console.log("main hello");
  const workers = [0, 1, 2, 3].map(() => new Worker(__filename));
  const kids = [0, 1, 2, 3].map(() => fork(__filename, ["child"]));
  setTimeout(() => {
    workers.forEach((w) => w.terminate());
    kids.forEach((k) => k.send("bye"));
  }, 3000);
}

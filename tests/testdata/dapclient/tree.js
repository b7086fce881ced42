// The DAP client test's process tree: a worker thread, then a child process, each a thread.
const { Worker, isMainThread } = require("node:worker_threads");
const { fork } = require("node:child_process");
if (process.argv[2] === "child") {
  const who = "child";
  console.log("hello from", who);
} else if (!isMainThread) {
  const who = "worker";
  console.log("hello from", who);
} else {
  const w = new Worker(__filename);
  w.on("exit", () => {
    const c = fork(__filename, ["child"]);
    c.on("exit", () => console.log("main done"));
  });
}

// Fixture of the process-tree test: starts a detached child (its own process group), which
// starts a setsid grandchild that ignores SIGTERM; prints both pids, then waits.
const { spawn } = require("child_process");
const child = spawn(process.execPath, ["-e", `
  const { spawn } = require("child_process");
  const g = spawn("setsid", ["sh", "-c", "trap '' TERM; while :; do sleep 1; done"], { stdio: "ignore" });
  process.stdout.write(g.pid + "\\n"); // not console.log: a followed child's console is an event
  setInterval(() => {}, 1000);
`], { detached: true, stdio: ["ignore", "pipe", "ignore"] });
child.stdout.once("data", (d) => console.log("tree", child.pid, String(d).trim()));
setInterval(() => {}, 1000);

// Fixture of the service-death test: a tree no signal to node's group can end. A forked node
// child in node's process group starts a grandchild there that ignores SIGTERM; a detached
// child (its own group) starts a setsid grandchild that ignores SIGTERM. Prints every pid on
// one line, "tree A A1 B B1", then waits.
const { spawn } = require("child_process");
const ignoring = ["-c", "trap '' TERM; while :; do sleep 1; done"];
const src = (setsid) => `
  const g = require("child_process").spawn(${setsid ? '"setsid", ["sh", ' : '"sh", ['}${JSON.stringify(ignoring).slice(1, -1)}], { stdio: "ignore" });
  process.stdout.write(g.pid + "\\n"); // not console.log: a followed child's console is an event
  setInterval(() => {}, 1000);
`;
const pids = [];
function child(detached) {
  const c = spawn(process.execPath, ["-e", src(detached)], { detached, stdio: ["ignore", "pipe", "ignore"] });
  c.stdout.once("data", (d) => {
    pids.push(c.pid, Number(String(d).trim()));
    if (pids.length === 4) console.log("tree " + pids.join(" "));
  });
}
child(false);
child(true);
setInterval(() => {}, 1000);

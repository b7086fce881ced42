// Fixture of the process-tree benchmark: forks N short-lived children (argv[2], default 50), one
// after another, each saying hello; exits when the last has.
const { fork } = require("node:child_process");
if (process.argv[2] === "child") {
  console.log("child", process.pid);
} else {
  const n = Number(process.argv[2] || 50);
  let i = 0;
  const next = () => (i++ < n ? fork(__filename, ["child"]).on("exit", next) : console.log("forked", n));
  next();
}

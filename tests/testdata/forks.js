// Fixture of the process-tree tests: the main process forks a child, which forks a grandchild;
// it also starts node through sh -c and forks a child that exits at once. Each says hello; the
// main process reports every exit and ends once all have.
const { fork, spawn } = require("node:child_process");
const role = process.argv[2] || "main";
if (role === "main") {
  let left = 3;
  const done = (name) => (code) => {
    console.log(`main: ${name} exited ${code}`);
    if (--left === 0) console.log("main: all done");
  };
  fork(__filename, ["child"]).on("exit", done("child"));
  spawn("sh", ["-c", `"${process.execPath}" "${__filename}" shell`], { stdio: "inherit" }).on("exit", done("shell"));
  fork(__filename, ["quick"]).on("exit", done("quick"));
} else if (role === "child") {
  console.log("child: hello");
  fork(__filename, ["grandchild"]).on("exit", (code) => console.log("child: grandchild exited", code));
} else if (role === "grandchild") {
  console.log("grandchild: hello");
} else if (role === "shell") {
  console.log("shell child: hello");
}

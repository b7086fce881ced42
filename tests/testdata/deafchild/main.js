// A child whose inspector traced cannot reach: deaf.cjs, a preload of the program's run before
// traced's in the child, makes node's inspector.url() name a port nobody listens on, so the
// child announces an inspector traced cannot connect to. Its stderr goes nowhere: node's banner
// there, naming the real port, would let traced find it anyway. It must run all the same.
const { fork } = require("node:child_process");
const path = require("node:path");

if (process.argv[2] === "child") {
  console.log("deaf child: ran");
} else {
  const deaf = JSON.stringify(path.join(__dirname, "deaf.cjs"));
  const env = { ...process.env, NODE_OPTIONS: `--require ${deaf} ${process.env.NODE_OPTIONS || ""}` };
  fork(__filename, ["child"], { env, stdio: ["inherit", "inherit", "ignore", "ipc"] }).on("exit", (code) => console.log(`main: child exited ${code}`));
}

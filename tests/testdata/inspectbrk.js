// Fixture of the inspect-brk test: the program starts a child of its own with
// NODE_OPTIONS=--inspect-brk (argv[2], default --inspect-brk=127.0.0.1:0), which waits for a
// debugger before its first line; it must still run to its end under traced.
const { spawn } = require("node:child_process");
const opts = process.argv[2] || "--inspect-brk=127.0.0.1:0";
const child = spawn(process.execPath, ["-e", 'console.log("brk child: ran")'], {
  env: { ...process.env, NODE_OPTIONS: opts },
  stdio: "inherit",
});
child.on("exit", (code) => console.log("main: child exited", code));

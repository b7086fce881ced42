// Runs `npm run greet`: npm, then a shell, then node, each a process of the tree.
const { spawn } = require("node:child_process");
spawn("npm", ["run", "--silent", "greet"], { cwd: __dirname, stdio: "inherit" })
  .on("exit", (code) => console.log("npm exited", code));

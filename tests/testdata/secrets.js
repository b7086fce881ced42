// Secrets in what a program does (tests/redaction_test.go): logged, in a local, in an error's
// message; an ordinary token count beside them. The program writes the real key to a file, so a
// test can check that traced changed nothing the program did.
const fs = require("node:fs");
const key = "AKIA" + "IOSFODNN7EXAMPLE";
const dbPassword = "hunter2-" + "correct-horse";
const tokenCount = 4096;
console.log("connecting with", key, "to postgres://app:" + dbPassword + "@db:5432/shop", "tokens", tokenCount);
if (process.argv[2]) fs.writeFileSync(process.argv[2], key);
function connect() {
  const url = "postgres://app:" + dbPassword + "@db:5432/shop";
  debugger;
  throw new Error("cannot reach " + url);
}
try {
  connect();
} catch (e) {
  console.error("failed:", e.message);
}

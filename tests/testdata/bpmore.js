// Fixture of the breakpoint tests, which name its line numbers: edit with care.
const helper = require("./bpmore_lib.js");
globalThis.entries = 0;
function counted(n) {
  globalThis.entries++;

  // a comment line
  return helper.twice(n);
}
let out = 0;
for (let i = 1; i <= 3; i++) {
  out += counted(i);
  out += 1;
}
if (typeof globalThis.onJob === "function") globalThis.onJob("out=" + out);
console.log("out", out);

// Fixture of the pause-on-exceptions tests, which name its line numbers: edit with care. The
// first throw is caught; the second is not, and ends the program with exit code 1.
function risky() {
  throw new Error("thrown");
}
try {
  risky();
} catch (err) {
  console.log("handled", err.message);
}
console.log("done");
risky();

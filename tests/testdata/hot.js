// Fixture of the CPU profile tests: work() spends nearly all its time in hot().
function hot(n) {
  let x = 0;
  for (let i = 0; i < n; i++) x += Math.sqrt(i) % 7;
  return x;
}
function cold() {
  return 1;
}
globalThis.work = () => cold() + hot(3e7);
setInterval(() => {}, 1000);
// "ready" once work is defined and node is idle: node serves the inspector between any two JS
// steps, so a call the test made while the module loader or the first write to stdout (which
// sets up the stream) still ran would run inside them, and their frames would share the profile.
console.log("loading");
setImmediate(() => console.log("ready"));

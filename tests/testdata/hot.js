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
console.log("ready"); // work is defined: the test profiles it from here

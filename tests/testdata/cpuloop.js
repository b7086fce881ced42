// Times a CPU-bound loop (calls, small objects, arithmetic; argv[2] rounds, default 1e7) with
// process.hrtime, once in the script's top level and once inside a function, and prints both in
// milliseconds: "top <ms> fn <ms>". BenchmarkRawVsTraced/loop compares them raw against traced:
// a script whose first-line break was paused and resumed runs its top level without OSR.
const n = Number(process.argv[2] || 1e7);
function step(p, i) {
  return { x: (p.x * 31 + i) % 1000003, y: p.y ^ i };
}
function ms(since) {
  return (Number(process.hrtime.bigint() - since) / 1e6).toFixed(3);
}
let t0 = process.hrtime.bigint();
let p = { x: 1, y: 0 };
for (let i = 0; i < n; i++) p = step(p, i);
const top = ms(t0);
function loop() {
  const t0 = process.hrtime.bigint();
  let p = { x: 1, y: 0 };
  for (let i = 0; i < n; i++) p = step(p, i);
  return ms(t0);
}
console.log("top", top, "fn", loop());

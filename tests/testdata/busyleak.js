// Fixture of the dashboard test: keeps the CPU busy in hot() and keeps Order objects alive, so
// a CPU profile and a heap diff of it have something to show. Never exits on its own.
class Order {
  constructor(i) {
    this.i = i;
    this.lines = [i, i + 1];
  }
}
const kept = [];
function hot(n) {
  let x = 0;
  for (let i = 0; i < n; i++) x += Math.sqrt(i) % 7;
  return x;
}
setInterval(() => {
  hot(2e5);
  for (let i = 0; i < 200; i++) kept.push(new Order(i));
}, 10);
console.log("ready");

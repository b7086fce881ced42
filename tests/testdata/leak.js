// Fixture of the heap tests: each grow(n) keeps n more LeakyThing objects alive, forever. It
// prints "ready" once grow is defined: an eval sent right after the start may run before that.
class LeakyThing {
  constructor(i) {
    this.i = i; this.a = 1; this.b = 2; this.c = 3; this.d = 4; this.e = 5; this.f = 6; this.g = 7;
  }
}
globalThis.kept = [];
globalThis.grow = (n) => {
  for (let i = 0; i < n; i++) kept.push(new LeakyThing(i));
  return kept.length;
};
setInterval(() => {}, 1000);
console.log("ready");

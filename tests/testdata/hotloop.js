// Fixture of the tight-loop test: a loop V8 optimises in place (OSR), counting in a local and
// publishing the count in globalThis.spins now and then. A timer keeps the process alive once
// the loop is killed.
setInterval(() => {}, 1000);
let spins = 0;
const end = Date.now() + 60000;
console.log("spinning");
while (Date.now() < end) {
  spins++;
  if ((spins & 0xffff) === 0) globalThis.spins = spins;
}

// Fixture of the debugger tests: says it is spinning, then stays busy for a minute.
let spins = 0;
const end = Date.now() + 60000;
console.log("spinning");
while (Date.now() < end) {
  spins++;
}
console.log("spun", spins);

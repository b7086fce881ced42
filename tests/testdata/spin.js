// Fixture of the debugger tests: says it is spinning, then stays busy for a minute, 20 ms at a time.
let spins = 0;
const end = Date.now() + 60000;
console.log("spinning");
// Node 22 does not answer the debugger inside a loop V8 optimised in place (the tight-loop test
// covers that): here the event loop turns between busy stretches, so every line answers.
function spin() {
  const until = Date.now() + 20;
  while (Date.now() < until) spins++;
  if (Date.now() < end) setImmediate(spin);
  else console.log("spun", spins);
}
spin();

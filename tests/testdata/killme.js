// Fixture of the kill-execution tests, which name its line numbers: edit with care. A timer says
// "alive" every 50ms, while a callback says "spinning" and never returns (globalThis.spins counts
// its turns); ending that callback lets the event loop go on. argv[2] picks where it spins:
// timeout (a setTimeout callback, the default), io (an fs callback) or main (the script itself).
setInterval(() => console.log("alive"), 50);
function spin() {
  console.log("spinning");
  globalThis.spins = 0;
  for (;;) globalThis.spins++;
}
switch (process.argv[2]) {
  case "io":
    require("fs").stat(__filename, spin);
    break;
  case "main":
    spin();
    break;
  default:
    setTimeout(spin, 0);
}

// Fixture of the attach tests, which start it under --inspect themselves and name its lines.
let beats = 0;
function beat() {
  beats++;
  globalThis.beats = beats; // for evaluations while it runs, which see globals only
  console.log("beat", beats);
}
setInterval(beat, 20);

// Prints N lines of W characters, pausing 1 ms every 10 lines: a steady, fast producer that a
// reading subscriber can follow and a stalled one cannot.
const n = Number(process.argv[2] || 20000);
const pad = "x".repeat(Number(process.argv[3] || 900));
(async () => {
  for (let i = 0; i < n; i++) {
    console.log("line", i, pad);
    if (i % 10 === 9) await new Promise((r) => setTimeout(r, 1));
  }
})();

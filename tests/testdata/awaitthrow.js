// Fixture of TestAsyncFramesOfThrow, which names its line numbers: edit with care.
async function check(n) {
  await null;
  if (n > 1) throw new RangeError("too big: " + n);
}
async function run() {
  try {
    await check(2);
  } catch (e) {
    console.log("caught", e.message);
  }
}
run();

// Throws inside a function and catches it; the program goes on and ends well.
function parse(text) {
  const limit = 3;
  if (text.length > limit) {
    throw new RangeError(`too long: ${text}`);
  }
  return text;
}
let out = "";
for (const t of ["ab", "abcdef"]) {
  try {
    out += parse(t);
  } catch (e) {
    console.log("caught", e.message);
  }
}
console.log("done", out);

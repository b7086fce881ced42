// Steps over calls that throw and catch inside; a throw after them is recorded once it runs on.
function risky(n) {
  try {
    throw new Error("inner " + n);
  } catch {
    return n;
  }
}
let total = 0;
total += risky(1);
total += risky(2);
try {
  throw new TypeError("later " + total);
} catch {}
console.log("total", total);

// A library that throws and catches inside itself, on every call.
function parseOr(text, fallback) {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}
module.exports = { parseOr };

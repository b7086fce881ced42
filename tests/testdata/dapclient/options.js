// The DAP client test's launch options: a timer made at the start, a caught SyntaxError, then a TypeError nothing catches.
const timer = setInterval(() => {}, 1000);
try { JSON.parse("{"); } catch (e) { console.log("caught", e.message); }
function boom() { throw new TypeError("boom " + typeof timer); }
boom();

// The DAP client test's exceptions: one caught, then one nothing catches.
function parse(s) { return JSON.parse(s); }
try { parse("{"); } catch (e) { console.log("caught", e.message); }
const cfg = { retries: 3 };
function boom(cfg) { throw new TypeError("bad retries " + cfg.retries); }
boom(cfg);

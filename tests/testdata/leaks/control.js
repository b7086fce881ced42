// The control of the leak kinds (tests/heapwhy_test.go): the same work as kinds.js, each kind
// undone before the call returns (the listener removed, the entry deleted, the interval
// cleared, the line shifted out, the context's promise settled, the frame dropped). A leak
// report over any number of calls names nothing above noise.
const EventEmitter = require("node:events");
const { AsyncLocalStorage } = require("node:async_hooks");

class Subscriber { constructor(i) { this.id = i; } }
class CacheEntry { constructor(i) { this.key = "k" + i; this.body = { n: i }; } }
class Tick { constructor(i) { this.at = i; } }
class LogLine { constructor(i) { this.text = "line " + i; } }
class RequestContext { constructor(i) { this.requestId = "req-" + i; } }
class Frame { constructor() { this.pixels = new Uint8Array(32 * 1024); } }

const bus = new EventEmitter();
const cache = new Map();
const logLines = [];
const als = new AsyncLocalStorage();
let n = 0;

globalThis.control = async () => {
  const s = new Subscriber(++n);
  const onChange = () => s.id;
  bus.on("change", onChange);
  bus.off("change", onChange);
  cache.set("k" + n, new CacheEntry(n));
  cache.delete("k" + n);
  const t = new Tick(n);
  clearInterval(setInterval(() => t.at, 1e9));
  logLines.push(new LogLine(n));
  if (logLines.length > 10) logLines.shift();
  await als.run(new RequestContext(n), () => Promise.resolve().then(() => als.getStore()));
  return new Frame().pixels.length;
};

setInterval(() => {}, 1000);
console.log("ready");

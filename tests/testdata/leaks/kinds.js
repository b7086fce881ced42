// Six kinds of leak, one function each, that the leak report must name by the collection that
// accumulates them and by the function's line (tests/heapwhy_test.go): each call leaves one
// more object held. Each function is one line, so that every allocation in it (the ALS kind's
// callback too) is sampled at that line.
const EventEmitter = require("node:events");
const { AsyncLocalStorage } = require("node:async_hooks");

class Subscriber { constructor(i) { this.id = i; } }
class CacheEntry { constructor(i) { this.key = "k" + i; this.body = { n: i }; } }
class Tick { constructor(i) { this.at = i; } }
class LogLine { constructor(i) { this.text = "line " + i; } }
class RequestContext { constructor(i) { this.requestId = "req-" + i; } }
class Frame { constructor() { this.pixels = new Uint8Array(32 * 1024); } }

const bus = new EventEmitter();
bus.setMaxListeners(0);
const cache = new Map();
globalThis.logLines = [];
const frames = [];
const als = new AsyncLocalStorage();
const never = new Promise(() => {}); // a shutdown signal that has not come
let n = 0;

globalThis.leakEmitter = () => { const s = new Subscriber(++n); bus.on("change", () => s.id); };
globalThis.leakMap = () => { cache.set("k" + ++n, new CacheEntry(n)); };
globalThis.leakInterval = () => { const t = new Tick(++n); setInterval(() => t.at, 1e9); };
globalThis.leakArray = () => { globalThis.logLines.push(new LogLine(++n)); };
globalThis.leakContext = () => als.run(new RequestContext(++n), () => { never.then(() => als.getStore()); });
globalThis.leakBuffers = () => { frames.push(new Frame()); };
globalThis.noLeak = () => new CacheEntry(++n).key.length;

setInterval(() => {}, 1000);
console.log("ready");

// Leak fixtures of the heapgraph tests: `node leaks.js <scenario> <dir>` sets the scenario up,
// runs a few warm-up iterations, writes <dir>/before.heapsnapshot (its highest object id is
// the leak window's watermark), runs N iterations under the sampling heap profiler (its
// profile in <dir>/window.heapprofile), and writes <dir>/after.heapsnapshot. Each scenario's
// step is a named function: the allocation sites the tests expect under its cluster.
'use strict';
const fs = require('fs');
const inspector = require('inspector');
const v8 = require('v8');
const path = require('path');
const EventEmitter = require('events');

const [, , scenario, dir] = process.argv;
const N = 400;

class Session {
  constructor(i) {
    this.id = i;
    this.name = 'session-' + i;
  }
}
class CacheEntry {
  constructor(i) {
    this.key = 'k' + i;
    this.payload = { n: i, at: Date.now() };
  }
}
class LogEntry {
  constructor(i) {
    this.line = 'request ' + i;
  }
}
class Frame {
  constructor() {
    this.pixels = new Uint8Array(32 * 1024);
  }
}

class RequestContext {
  constructor(i) {
    this.requestId = 'req-' + i;
  }
}

const cache = new Map();

const scenarios = {
  // An EventEmitter listener per request: the closure keeps the session.
  emitter() {
    const bus = new EventEmitter();
    bus.setMaxListeners(0);
    globalThis.bus = bus;
    return function emitterStep(i) {
      const session = new Session(i);
      bus.on('settings', function onSettings() {
        return session.id;
      });
    };
  },
  // A module-scoped Map used as a cache without eviction.
  mapcache() {
    globalThis.handle = function handle(i) {
      cache.set('k' + i, new CacheEntry(i));
    };
    return function mapcacheStep(i) {
      globalThis.handle(i);
    };
  },
  // A closure captured by setInterval per request, never cleared.
  interval() {
    return function intervalStep(i) {
      const session = new Session(i);
      setInterval(function poll() {
        session.id++;
      }, 1e7);
    };
  },
  // The same, with a duration no timer had before the window: node makes a new TimersList
  // for it in the window, and the Timeouts hang in it.
  newinterval() {
    return function newintervalStep(i) {
      if (i < 0) return; // no warm-up
      const session = new Session(i);
      setInterval(function poll() {
        session.id++;
      }, 3e7);
    };
  },
  // A global array that only grows.
  globalarray() {
    globalThis.requestLog = [];
    return function globalarrayStep(i) {
      globalThis.requestLog.push(new LogEntry(i));
    };
  },
  // 32 KiB typed arrays held by objects in an array.
  typedarrays() {
    globalThis.frames = [];
    return function typedarraysStep() {
      globalThis.frames.push(new Frame());
    };
  },
  // An AsyncLocalStorage context kept by a long-lived promise: each request chains a
  // reaction on a promise that never settles.
  als() {
    const { AsyncLocalStorage } = require('async_hooks');
    const als = new AsyncLocalStorage();
    const never = new Promise(() => {});
    globalThis.shutdown = never;
    return function alsStep(i) {
      als.run(new RequestContext(i), function alsRequest() {
        never.then(function onShutdown() {
          return als.getStore();
        });
      });
    };
  },
  // The control: everything an iteration makes is dropped.
  control() {
    const bus = new EventEmitter();
    globalThis.bus = bus;
    return (i) => {
      const session = new Session(i);
      const onSettings = () => session.id;
      bus.on('settings', onSettings);
      bus.off('settings', onSettings);
      cache.set('k' + i, new CacheEntry(i));
      cache.delete('k' + i);
    };
  },
};

// The sampler's session is made before the window, so that nothing of it is born in the
// window but the profile, which is let go before the last snapshot. An in-process session
// answers synchronously.
const inspectorSession = new inspector.Session();
inspectorSession.connect();
const post = (method, params) => {
  let answer;
  inspectorSession.post(method, params, (err, res) => {
    if (err) throw err;
    answer = res;
  });
  return answer;
};
post('HeapProfiler.enable');

const step = scenarios[scenario]();
for (let i = 0; i < 3; i++) step(-1 - i);
v8.writeHeapSnapshot(path.join(dir, 'before.heapsnapshot'));
post('HeapProfiler.startSampling', { samplingInterval: 512 });
for (let i = 0; i < N; i++) step(i);
fs.writeFileSync(path.join(dir, 'window.heapprofile'), JSON.stringify(post('HeapProfiler.stopSampling').profile));
v8.writeHeapSnapshot(path.join(dir, 'after.heapsnapshot'));
process.exit(0);

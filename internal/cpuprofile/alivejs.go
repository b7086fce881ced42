package cpuprofile

// Why a process will not exit: what keeps its event loop alive. The engine evaluates these
// snippets through the inspector in each target (main thread, worker, child), no preload:
//
//  1. Runtime.evaluate(AliveJS, returnByValue) answers the handles and requests node lists
//     (servers, sockets, child processes, message ports, stdio, fs requests) and the counts of
//     ref'd resources by type, timers included.
//  2. Timers are in no such list: Runtime.evaluate(TimeoutPrototypeJS) gives the prototype
//     of Timeout objects, Runtime.queryObjects({prototypeObjectId}) an array of every Timeout
//     alive in the heap, and Runtime.callFunctionOn(TimersDescribeJS, objectId: that array,
//     returnByValue) the pending ones. Runtime.callFunctionOn(TimerCallbacksJS) on the same
//     array gives their callbacks in the same order: Runtime.getProperties on each callback
//     has the [[FunctionLocation]] internal property to put in Handle.Location. Release the
//     object group afterwards.
//  3. Workers likewise: WorkerPrototypeJS, queryObjects, WorkersDescribeJS.
//
// ParseAlive reads step 1's answer and ParseHandles steps 2 and 3's; Alive.Add joins them and
// RenderAlive says "still running because: ...".

// AliveJS lists what keeps the event loop alive, as a JSON string ParseAlive reads. Each
// handle has its kind and whether it is ref'd (an unref'd one lets the process exit); a
// child's stdio pipes name their child's pid in owner. It reads no lazy getter of process, so
// that it answers at any pause, mid-bootstrap too.
const AliveJS = `(() => {` + creationOfJS + `
  const children = new Map();
  for (const h of process._getActiveHandles()) {
    if (h && h.constructor && h.constructor.name === 'ChildProcess' && Array.isArray(h.stdio)) {
      for (const s of h.stdio) if (s) children.set(s, h.pid);
    }
  }
  const endpoint = (address, port) => (address === undefined ? undefined : port === undefined ? String(address) : address + ':' + port);
  const refOf = (h) => {
    try {
      if (typeof h.hasRef === 'function') return h.hasRef();
      if (h._handle && typeof h._handle.hasRef === 'function') return h._handle.hasRef();
    } catch {}
    return true;
  };
  const describe = (h) => {
    const type = (h && h.constructor && h.constructor.name) || typeof h;
    const d = { kind: 'other', type, ref: refOf(h) };
    const fd = h._handle && typeof h._handle.fd === 'number' && h._handle.fd >= 0 ? h._handle.fd : undefined;
    if (fd !== undefined) d.fd = fd;
    const c = created(h, h._handle);
    if (c) d.created = c;
    // process.stdin/stdout/stderr are lazy getters: reading one makes the stream, which
    // mid-bootstrap fails ("net.Socket is not a constructor" while node:net loads) and
    // otherwise changes the program. A stdio stream is known by the fd node gives it.
    if (typeof h.fd === 'number' && h.fd >= 0 && h.fd <= 2) {
      d.kind = 'stdio';
      // A ref'd stdio stream keeps the loop alive only while it reads. A write its reader has
      // not drained yet (traced's own pipe, say) ends once read, and node flushes at exit.
      d.ref = d.ref && h._handle !== undefined && h._handle !== null && h._handle.reading === true;
    } else if (children.has(h)) {
      d.kind = 'child-stdio';
      d.owner = children.get(h);
    } else if (type === 'ChildProcess') {
      d.kind = 'child';
      d.pid = h.pid;
      d.command = (h.spawnargs || []).join(' ');
    } else if (type === 'MessagePort') {
      d.kind = 'message-port';
    } else if (typeof h.listen === 'function' && typeof h.address === 'function') {
      d.kind = 'server';
      const a = h.address();
      d.address = a && typeof a === 'object' ? endpoint(a.address, a.port) : a || undefined;
    } else if (type === 'Socket' || type === 'TLSSocket') {
      d.kind = 'socket';
      d.peer = endpoint(h.remoteAddress, h.remotePort);
      d.local = endpoint(h.localAddress, h.localPort);
      if (!d.peer && h._handle && h._handle.constructor.name === 'Pipe') d.kind = 'pipe';
    }
    return d;
  };
  const resources = {};
  if (typeof process.getActiveResourcesInfo === 'function') {
    for (const r of process.getActiveResourcesInfo()) resources[r] = (resources[r] || 0) + 1;
  }
  let threadId = 0;
  try { threadId = process.getBuiltinModule('node:worker_threads').threadId; } catch {}
  return JSON.stringify({
    pid: process.pid,
    threadId,
    handles: process._getActiveHandles().map(describe),
    requests: process._getActiveRequests().map((r) => ({ kind: 'request', type: (r && r.constructor && r.constructor.name) || typeof r, ref: true, created: created(r) })),
    resources,
  });
})()`

// TimeoutPrototypeJS evaluates to the prototype every setTimeout and setInterval object shares
// (node's internal Timeout class), for Runtime.queryObjects. Its probe timer is cleared at once.
const TimeoutPrototypeJS = `(() => {
  const probe = setTimeout(() => {}, 0);
  clearTimeout(probe);
  return Object.getPrototypeOf(probe);
})()`

// liveTimersJS keeps the Timeouts of this (Runtime.queryObjects's array) that are still
// pending: not cleared (_idleTimeout -1) and not fired or destroyed.
const liveTimersJS = `Array.prototype.filter.call(this, (t) => t && t._idleTimeout >= 0 && !t._destroyed)`

// TimersDescribeJS is a function for Runtime.callFunctionOn on the array of Timeouts: it answers
// the pending ones as a JSON string ParseHandles reads (kind timeout or interval, delay, ref'd,
// the callback's name).
const TimersDescribeJS = `function () {` + creationOfJS + `
  const live = ` + liveTimersJS + `;
  return JSON.stringify(live.map((t) => ({
    kind: t._repeat ? 'interval' : 'timeout',
    delayMs: t._idleTimeout,
    ref: typeof t.hasRef === 'function' ? t.hasRef() : true,
    callback: (t._onTimeout && t._onTimeout.name) || '(anonymous)',
    created: created(t),
  })));
}`

// TimerCallbacksJS is a function for Runtime.callFunctionOn on the same array: it answers the
// pending timers' callbacks, in TimersDescribeJS's order, as an array object whose elements'
// [[FunctionLocation]] give each timer's file:line.
const TimerCallbacksJS = `function () {
  return ` + liveTimersJS + `.map((t) => t._onTimeout);
}`

// WorkerPrototypeJS evaluates to the prototype of Worker objects, for Runtime.queryObjects.
const WorkerPrototypeJS = `process.getBuiltinModule('node:worker_threads').Worker.prototype`

// WorkersDescribeJS is a function for Runtime.callFunctionOn on the array of Workers: it answers
// the running ones (an exited worker's threadId is -1) as a JSON string ParseHandles reads,
// ref'd or not as the worker's internal handle (kHandle) says.
const WorkersDescribeJS = `function () {` + creationOfJS + `
  const threadId = (w) => {
    try { return w.threadId; } catch { return -1; } // the prototype itself is in the array too
  };
  const handleOf = (w) => {
    const key = Object.getOwnPropertySymbols(w).find((s) => s.description === 'kHandle');
    return key && w[key];
  };
  const refOf = (w) => {
    const h = handleOf(w);
    return h && typeof h.hasRef === 'function' ? h.hasRef() : true;
  };
  return JSON.stringify(Array.prototype.filter.call(this, (w) => w && threadId(w) >= 0).map((w) => ({
    kind: 'worker',
    threadId: w.threadId,
    ref: refOf(w),
    created: created(handleOf(w)),
  })));
}`

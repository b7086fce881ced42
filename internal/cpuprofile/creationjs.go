package cpuprofile

// Creation stacks: where each handle that keeps a loop alive was made. With a start option
// (creationStacks), the engine evaluates CreationHookJS in each target it launched, at the
// pause before the program's first line; the alive snippets then read, through
// creationOfJS, the stack each handle's resource was created with.

// CreationKey names, through Symbol.for, the global that holds the symbol under which the hook
// keeps each resource's stack.
const CreationKey = "traced.creationStacks"

// CreationHookJS installs an async_hooks init hook that keeps, for the resource types that can
// keep an event loop alive, the stack their resource was created with, in a symbol property of
// the resource (it goes with it; a WeakMap of timer-heavy programs made GC ten times dearer).
// PROMISE is not among them, and trackPromises: false (node 24+) keeps node from installing
// promise hooks at all; older nodes run the hook for every promise anyway. The stack is
// captured, not formatted: V8 formats it only when read, once alive asks. Its cost is the
// reason it is a start option (BenchmarkCreationStacks). It answers "installed" or "already".
const CreationHookJS = `(() => {
  const key = Symbol.for('` + CreationKey + `');
  if (globalThis[key]) return 'already';
  const types = new Set(['Timeout', 'Immediate', 'TCPSERVERWRAP', 'TCPWRAP', 'TCPCONNECTWRAP', 'TLSWRAP',
    'PIPESERVERWRAP', 'PIPEWRAP', 'PIPECONNECTWRAP', 'PROCESSWRAP', 'TTYWRAP', 'UDPWRAP', 'SIGNALWRAP',
    'FSEVENTWRAP', 'STATWATCHER', 'FSREQCALLBACK', 'FSREQPROMISE', 'GETADDRINFOREQWRAP',
    'GETNAMEINFOREQWRAP', 'QUERYWRAP', 'MESSAGEPORT', 'WORKER']);
  const stack = Symbol('traced creation stack');
  const capture = (above) => {
    const at = {};
    const limit = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 12; // node's own frames (emitInit, the constructor) come first
      Error.captureStackTrace(at, above);
    } catch {
      return undefined;
    } finally {
      Error.stackTraceLimit = limit;
    }
    return at;
  };
  function init(asyncId, type, triggerAsyncId, resource) {
    if (!types.has(type) || resource === null || typeof resource !== 'object') return;
    const at = capture(init);
    if (!at) return;
    // Made in a callback of node's own (a lookup's), the stack has none of the program's
    // frames: the resource whose callback runs has them. Linked two deep at most, so that a
    // chain of timers each made in the last one's callback is not kept.
    const parent = executionAsyncResource();
    const up = parent !== null && typeof parent === 'object' ? parent[stack] : undefined;
    if (up && (up.depth || 0) < 2) {
      at.parent = up;
      at.depth = (up.depth || 0) + 1;
    }
    try {
      resource[stack] = at;
    } catch {} // a frozen resource keeps no stack
  }
  // A server makes its handle in a process.nextTick after listen (no frame of the program's,
  // and ticks are too many to capture): its listen call is captured on the server instead.
  const { Server } = process.getBuiltinModule('node:net');
  const listen = Server.prototype.listen;
  Server.prototype.listen = function listen_(...args) {
    if (this !== null && typeof this === 'object' && !this[stack]) {
      try {
        this[stack] = capture(listen_);
      } catch {}
    }
    return Reflect.apply(listen, this, args);
  };
  Object.defineProperty(Server.prototype.listen, 'name', { value: 'listen' });
  const { createHook, executionAsyncResource } = process.getBuiltinModule('node:async_hooks');
  createHook({ init, trackPromises: false }).enable();
  Object.defineProperty(globalThis, key, { value: stack, configurable: true });
  return 'installed';
})()`

// creationOfJS defines created(...resources): the creation stack of the first resource the
// hook saw, as frames {fn, url, line, column} (1-based), node's own dropped; undefined without
// the hook. It reads the captured stack once, with a prepareStackTrace of its own answering
// V8's call sites (generated positions, which the engine maps), and puts the program's back.
const creationOfJS = `
  const creationStack = globalThis[Symbol.for('` + CreationKey + `')];
  const created = (...resources) => {
    if (!creationStack) return undefined;
    let at = resources.map((r) => (r !== null && typeof r === 'object' ? r[creationStack] : undefined)).find(Boolean);
    for (; at; at = at.parent) {
      const frames = framesOf(at);
      if (frames) return frames;
    }
    return undefined;
  };
  const framesOf = (at) => {
    const prev = Error.prepareStackTrace;
    let sites;
    try {
      Error.prepareStackTrace = (_, s) => s;
      sites = at.stack;
    } catch {
      return undefined;
    } finally {
      Error.prepareStackTrace = prev;
    }
    if (!Array.isArray(sites)) return undefined;
    const out = [];
    for (const s of sites) {
      const url = s.getScriptNameOrSourceURL && s.getScriptNameOrSourceURL();
      if (!url || url.startsWith('node:') || s.isNative()) continue;
      out.push({ fn: s.getFunctionName() || '', url, line: s.getLineNumber() || 0, column: s.getColumnNumber() || 0 });
      if (out.length === 6) break; // a few of the program's frames: the answer stays short
    }
    return out.length ? out : undefined;
  };
`

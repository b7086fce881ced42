'use strict';
// Runs a keep-alive fixture, then evaluates the alive snippets through an in-process inspector
// session, as the engine does through its own, and prints their answers as one JSON line.
// Usage: node harness.js fixture.js [args...], the snippets in $TRACED_SNIPPETS (JSON).
const inspector = require('node:inspector');
const path = require('node:path');
const { Worker, isMainThread } = require('node:worker_threads');

// With $TRACED_IN_WORKER, the fixture and the check run in a worker thread, whose own inspector
// session the snippets go through; the main thread only waits for it.
if (isMainThread && process.env.TRACED_IN_WORKER) {
  new Worker(__filename, { argv: process.argv.slice(2) });
  return;
}

const snippets = JSON.parse(process.env.TRACED_SNIPPETS);
const fixture = path.resolve(process.argv[2]);
process.argv.splice(2, 1);
require(fixture);
// The check runs from an immediate once this timer has fired: neither is pending then.
setTimeout(() => setImmediate(check), 300);

function post(session, method, params) {
  return new Promise((resolve, reject) => {
    session.post(method, params, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

async function check() {
  const session = new inspector.Session();
  session.connect();
  const call = async (method, params) => {
    const res = await post(session, method, params);
    if (res.exceptionDetails) throw new Error(JSON.stringify(res.exceptionDetails));
    return res;
  };
  const evaluate = async (expression, returnByValue) => (await call('Runtime.evaluate', { expression, returnByValue })).result;
  // Every object of a prototype, described by a function called on the array of them.
  const query = async (prototypeExpression, describe) => {
    const proto = await evaluate(prototypeExpression, false);
    const { objects } = await call('Runtime.queryObjects', { prototypeObjectId: proto.objectId });
    const res = await call('Runtime.callFunctionOn', { objectId: objects.objectId, functionDeclaration: describe, returnByValue: true });
    return { objects, value: res.result.value };
  };
  const out = { alive: (await evaluate(snippets.alive, true)).value };
  const timers = await query(snippets.timeoutPrototype, snippets.timersDescribe);
  out.timers = timers.value;
  // Each pending timer's callback location, from [[FunctionLocation]] (lines 0-based).
  const callbacks = await call('Runtime.callFunctionOn', { objectId: timers.objects.objectId, functionDeclaration: snippets.timerCallbacks });
  const props = await call('Runtime.getProperties', { objectId: callbacks.result.objectId, ownProperties: true });
  out.timerLines = [];
  for (const p of props.result.filter((p) => /^\d+$/.test(p.name))) {
    const fn = await call('Runtime.getProperties', { objectId: p.value.objectId, ownProperties: true });
    const loc = (fn.internalProperties || []).find((ip) => ip.name === '[[FunctionLocation]]');
    out.timerLines.push(loc ? loc.value.value.lineNumber : -1);
  }
  out.workers = (await query(snippets.workerPrototype, snippets.workersDescribe)).value;
  session.disconnect();
  process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(0));
}

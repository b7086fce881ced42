// Drives `traced dap` with Microsoft's DebugClient (@vscode/debugadapter-testsupport), a DAP
// client nobody here wrote. Usage: node client.js <traced binary> [scenario] (with DAP_PORT and
// DAP_TOKEN: the DAP listener of `traced serve --dap-port` instead). Each scenario launches a
// program under a fresh adapter; each check prints one JSON line {step, ...}; a failed check
// throws, and the script exits 1 with the error on stderr.
"use strict";
const assert = require("node:assert");
const path = require("node:path");
const { DebugClient } = require("@vscode/debugadapter-testsupport");

const traced = process.argv[2];
const here = __dirname;
const app = path.join(here, "app.js");
const tree = path.join(here, "tree.js");
const throws = path.join(here, "throws.js");
const options = path.join(here, "options.js");
const twoThreads = path.join(here, "twothreads.js");
const countTS = path.join(here, "..", "mapped", "count.ts");
const countJS = path.join(here, "..", "mapped", "count.js");

function report(step, detail) {
  console.log(JSON.stringify({ step, ...detail }));
}

// rest calls traced's REST API, as the CLI, an MCP client or a script would beside the editor.
async function rest(method, route, body) {
  const res = await fetch(`http://${process.env.TRACED_ADDR}${route}`, {
    method,
    headers: { authorization: `Bearer ${process.env.TRACED_TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  assert.ok(res.ok, `${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// sessionOf resolves to the traced session the adapter announces at launch.
function sessionOf(dc) {
  return new Promise((resolve) => {
    const on = (e) => {
      const m = /^traced session (\S+):/.exec(e.body.output);
      if (m) {
        dc.removeListener("output", on);
        resolve(m[1]);
      }
    };
    dc.on("output", on);
  });
}

// collect gathers the events of a kind from now on.
function collect(dc, kind) {
  const got = [];
  dc.on(kind, (e) => got.push(e.body));
  return got;
}

// nextEvent resolves to the body of the next event of a kind that matches.
function nextEvent(dc, kind, match) {
  return new Promise((resolve) => {
    const on = (e) => {
      if (match(e.body)) {
        dc.removeListener(kind, on);
        resolve(e.body);
      }
    };
    dc.on(kind, on);
  });
}

// withClient runs fn with a started client and stops it after; a function fn answers runs then.
async function withClient(fn) {
  const dc = new DebugClient(traced, "dap", "node", { env: process.env, cwd: here }, true);
  dc.defaultTimeout = 20000;
  if (process.env.DAP_TOKEN) { // the service's listener: the token comes in the launch arguments
    const launch = dc.launchRequest.bind(dc);
    dc.launchRequest = (args) => launch({ token: process.env.DAP_TOKEN, ...args });
  }
  // DAP_PORT: a running service's DAP listener instead of `traced dap` on stdio.
  await dc.start(process.env.DAP_PORT ? Number(process.env.DAP_PORT) : undefined);
  let after;
  try {
    after = await fn(dc);
  } finally {
    await dc.stop();
  }
  if (typeof after === "function") await after();
}

// A breakpoint in a plain JS file: stop, stack, scopes, variables, evaluate, step, set a
// variable, replace the source's breakpoints, run to the end.
async function basics(dc) {
  await dc.hitBreakpoint({ program: app }, { path: app, line: 3 });
  report("breakpoint", { line: 3 });
  const threads = await dc.threadsRequest();
  assert.strictEqual(threads.body.threads[0].name, "main");
  const st = await dc.stackTraceRequest({ threadId: 1 });
  const top = st.body.stackFrames[0];
  assert.strictEqual(top.name, "add");
  assert.strictEqual(top.source.path, app);
  const scopes = await dc.scopesRequest({ frameId: top.id });
  const local = scopes.body.scopes.find((s) => s.presentationHint === "locals");
  assert.ok(local, "a locals scope: " + JSON.stringify(scopes.body.scopes));
  const vars = await dc.variablesRequest({ variablesReference: local.variablesReference });
  const names = vars.body.variables.map((v) => v.name);
  assert.ok(names.includes("a") && names.includes("b"), "a and b in " + names);
  report("variables", { names });
  const ev = await dc.evaluateRequest({ expression: "a + b + 40", frameId: top.id, context: "repl" });
  assert.strictEqual(ev.body.result, "40");
  report("evaluate", { result: ev.body.result });
  const set = await dc.setVariableRequest({ variablesReference: local.variablesReference, name: "a", value: "100" });
  assert.strictEqual(set.body.value, "100");
  report("setVariable", { value: set.body.value });
  await Promise.all([dc.nextRequest({ threadId: 1 }), dc.assertStoppedLocation("step", { path: app, line: 4 })]);
  const st2 = await dc.stackTraceRequest({ threadId: 1 });
  const sum = await dc.evaluateRequest({ expression: "sum", frameId: st2.body.stackFrames[0].id, context: "watch" });
  assert.strictEqual(sum.body.result, "100");
  report("next", { line: 4, sum: sum.body.result });
  // Replace the source's breakpoints: none in add, one on the console.log line.
  const bps = await dc.setBreakpointsRequest({ source: { path: app }, breakpoints: [{ line: 11 }] });
  assert.ok(bps.body.breakpoints[0].verified, "line 11 verified");
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.assertStoppedLocation("breakpoint", { path: app, line: 11 })]);
  const st3 = await dc.stackTraceRequest({ threadId: 1 });
  const total = await dc.evaluateRequest({ expression: "total", frameId: st3.body.stackFrames[0].id, context: "watch" });
  assert.strictEqual(total.body.result, "103"); // add(0, 0) returns the 100 set, then +1, +2
  report("replaced", { total: total.body.result });
  const objVar = await dc.evaluateRequest({ expression: "obj", frameId: st3.body.stackFrames[0].id, context: "hover" });
  assert.ok(objVar.body.variablesReference > 0, "obj expandable");
  const props = await dc.variablesRequest({ variablesReference: objVar.body.variablesReference });
  assert.ok(props.body.variables.some((v) => v.name === "name" && v.value.includes("traced")), JSON.stringify(props.body.variables));
  report("expand", { props: props.body.variables.map((v) => v.name) });
  await Promise.all([
    dc.continueRequest({ threadId: 1 }),
    dc.assertOutput("stdout", "total 103 traced"),
    dc.waitForEvent("exited"),
    dc.waitForEvent("terminated"),
  ]);
  report("terminated", {});
}

// A breakpoint in a TypeScript original, bound through the compiled file's source map.
async function typescript(dc) {
  await dc.hitBreakpoint({ program: countJS, args: ["3"] }, { path: countTS, line: 4 });
  const st = await dc.stackTraceRequest({ threadId: 1 });
  assert.strictEqual(st.body.stackFrames[0].source.path, countTS);
  report("typescript", { line: st.body.stackFrames[0].line });
  await Promise.all([dc.setBreakpointsRequest({ source: { path: countTS }, breakpoints: [] }).then(() => dc.continueRequest({ threadId: 1 })),
    dc.waitForEvent("terminated")]);
}

// A breakpoint in a TypeScript original whose compiled script is not loaded yet: pending, then
// a breakpoint event when it binds, then the stop there.
async function pending(dc) {
  const service = path.join(here, "..", "ts", "src", "service.ts");
  const changed = dc.waitForEvent("breakpoint");
  await Promise.all([
    dc.waitForEvent("initialized").then(() => dc.setBreakpointsRequest({ source: { path: service }, breakpoints: [{ line: 9 }] }))
      .then((r) => {
        assert.strictEqual(r.body.breakpoints[0].verified, false, "pending before service.js loads");
        return dc.configurationDoneRequest();
      }),
    dc.launch({ program: path.join(here, "..", "ts", "dist", "app.js") }),
    dc.assertStoppedLocation("breakpoint", { path: service, line: 9 }),
  ]);
  const bound = (await changed).body;
  assert.strictEqual(bound.breakpoint.verified, true);
  assert.strictEqual(bound.breakpoint.source.path, service);
  report("pending", { reason: bound.reason, line: bound.breakpoint.line });
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent("terminated")]);
}

// A worker thread and a child process stop at their breakpoints as threads of this session.
async function threads(dc) {
  const stopped = [];
  dc.on("stopped", (e) => stopped.push(e.body));
  await Promise.all([
    dc.waitForEvent("initialized").then(() => dc.setBreakpointsRequest({ source: { path: tree }, breakpoints: [{ line: 6 }, { line: 9 }] }))
      .then(() => dc.configurationDoneRequest()),
    dc.launch({ program: tree }),
    dc.assertStoppedLocation("breakpoint", { path: tree, line: 9 }),
  ]);
  const worker = stopped[0].threadId;
  assert.notStrictEqual(worker, 1, "the worker is a thread of its own");
  const th = await dc.threadsRequest();
  const wt = th.body.threads.find((t) => t.id === worker);
  assert.ok(wt, "the worker in threads: " + JSON.stringify(th.body.threads));
  report("worker", { thread: wt.name });
  await Promise.all([dc.continueRequest({ threadId: worker }), dc.assertStoppedLocation("breakpoint", { path: tree, line: 6 })]);
  const child = stopped[1].threadId;
  assert.ok(child !== 1 && child !== worker, "the child is a thread of its own");
  const th2 = await dc.threadsRequest();
  const ct = th2.body.threads.find((t) => t.id === child);
  assert.ok(ct, "the child in threads: " + JSON.stringify(th2.body.threads));
  report("child", { thread: ct.name });
  await Promise.all([dc.continueRequest({ threadId: child }), dc.waitForEvent("terminated")]);
}

// An uncaught exception stops the program with its details; caught ones do not.
async function exceptions(dc) {
  await Promise.all([
    dc.waitForEvent("initialized").then(() => dc.setExceptionBreakpointsRequest({ filters: ["uncaught"] }))
      .then(() => dc.configurationDoneRequest()),
    dc.launch({ program: throws }),
    dc.assertStoppedLocation("exception", { path: throws, line: 5 }),
  ]);
  const info = await dc.exceptionInfoRequest({ threadId: 1 });
  assert.ok(/bad retries 3/.test(info.body.description), "description: " + info.body.description);
  report("exception", { id: info.body.exceptionId, description: info.body.description });
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent("terminated")]);
}

// Conditions, logpoints, breakable positions, sources, stepping in and out, restartFrame and
// setExpression.
async function features(dc) {
  const output = collect(dc, "output");
  await Promise.all([
    dc.waitForEvent("initialized").then(() => dc.setBreakpointsRequest({ source: { path: app }, breakpoints: [
      { line: 8, condition: "i === 2" },
      { line: 4, logMessage: "sum={sum}" },
    ] })).then((r) => {
      assert.ok(r.body.breakpoints.every((b) => b.verified), JSON.stringify(r.body.breakpoints));
      return dc.configurationDoneRequest();
    }),
    dc.launch({ program: app }),
    dc.assertStoppedLocation("breakpoint", { path: app, line: 8 }),
  ]);
  let top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
  const i = await dc.evaluateRequest({ expression: "i", frameId: top.id, context: "watch" });
  assert.strictEqual(i.body.result, "2");
  report("condition", { i: i.body.result });
  const logs = output.filter((o) => o.category === "console" && o.output.startsWith("sum=")).map((o) => o.output.trim());
  assert.deepStrictEqual(logs, ["sum=0", "sum=1"]);
  report("logpoint", { logs });
  const locs = await dc.customRequest("breakpointLocations", { source: { path: app }, line: 3, endLine: 4 });
  assert.ok(locs.body.breakpoints.some((b) => b.line === 3), JSON.stringify(locs.body));
  report("breakpointLocations", { count: locs.body.breakpoints.length });
  const loaded = await dc.customRequest("loadedSources", {});
  assert.ok(loaded.body.sources.some((s) => s.path === app), JSON.stringify(loaded.body.sources));
  report("loadedSources", {});
  await Promise.all([dc.stepInRequest({ threadId: 1 }), dc.assertStoppedLocation("step", { path: app, line: 3 })]);
  await Promise.all([dc.restartFrameRequest({ frameId: (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0].id }),
    dc.assertStoppedLocation("restart", { path: app, line: 3 })]);
  await Promise.all([dc.stepOutRequest({ threadId: 1 }), dc.assertStoppedLocation("step", { path: app })]);
  const out = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  assert.ok(out[0].name !== "add" && out[0].line >= 7 && out[0].line <= 8, "out of add: " + JSON.stringify(out[0]));
  assert.ok(out.slice(1).some((f) => f.presentationHint === "subtle"), "node's own frames are subtle");
  report("stepping", { out: out[0].line });
  const internal = out.find((f) => f.source && f.source.sourceReference > 0);
  assert.ok(internal, "node's own frames have a sourceReference: " + JSON.stringify(out));
  const src = await dc.sourceRequest({ source: internal.source, sourceReference: internal.source.sourceReference });
  assert.ok(src.body.content.split("\n").length >= internal.line, "the script's text, " + internal.source.name);
  report("source", { name: internal.source.name });
  top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
  const set = await dc.customRequest("setExpression", { expression: "total", value: "50", frameId: top.id });
  assert.strictEqual(set.body.value, "50");
  report("setExpression", { value: set.body.value });
  await dc.setBreakpointsRequest({ source: { path: app }, breakpoints: [] });
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent("terminated")]);
}

// Async parents after a label frame, and paging of the stack.
async function asyncStack(dc) {
  const asyncme = path.join(here, "..", "asyncme.js");
  await dc.hitBreakpoint({ program: asyncme }, { path: asyncme, line: 5 });
  const all = await dc.stackTraceRequest({ threadId: 1 });
  const label = all.body.stackFrames.findIndex((f) => f.presentationHint === "label");
  assert.ok(label > 0, "a label frame: " + JSON.stringify(all.body.stackFrames));
  assert.ok(all.body.stackFrames.slice(label + 1).some((f) => f.name === "outer"), "outer after the label");
  const page = await dc.stackTraceRequest({ threadId: 1, startFrame: 1, levels: 1 });
  assert.strictEqual(page.body.stackFrames.length, 1);
  assert.strictEqual(page.body.totalFrames, all.body.totalFrames);
  report("async", { label: all.body.stackFrames[label].name });
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent("terminated")]);
}

// A pause of a running program, then terminate.
async function pauseTerminate(dc) {
  const forever = path.join(here, "..", "forever.js");
  const ticked = dc.assertOutput("stdout", "tick");
  await Promise.all([dc.configurationSequence(), dc.launch({ program: forever })]);
  await ticked; // running
  // The engine can lose a pause asked in the program's first moments (it does through REST too):
  // ask again, each time waiting a bounded while for the stop.
  let stopped;
  for (let i = 0; i < 5 && !stopped; i++) {
    const next = dc.waitForEvent("stopped", 2000).catch(() => undefined);
    await dc.pauseRequest({ threadId: 1 });
    stopped = await next;
  }
  assert.ok(stopped, "no stop after 5 pauses");
  assert.strictEqual(stopped.body.reason, "pause");
  report("pause", {});
  await Promise.all([dc.terminateRequest({}), dc.waitForEvent("terminated")]);
  report("terminate", {});
}

// Attach to a session someone else started (here through REST): its pause shows, breakpoints
// work, and the client's disconnect leaves the session to its owner.
async function attachSession(dc) {
  const started = await rest("POST", "/api/trace/start", { target: "dapclient/app.js", mode: "debug", pauseOnStart: true });
  const id = started.session.id;
  await dc.initializeRequest();
  const init = dc.waitForEvent("initialized");
  const entry = dc.waitForEvent("stopped");
  await dc.attachRequest({ session: id });
  await init;
  assert.strictEqual((await entry).body.reason, "entry");
  await dc.setBreakpointsRequest({ source: { path: app }, breakpoints: [{ line: 11 }] });
  await dc.configurationDoneRequest();
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.assertStoppedLocation("breakpoint", { path: app, line: 11 })]);
  report("attach", {});
  return async () => {
    const list = await rest("GET", "/api/trace/list");
    const s = list.sessions.find((x) => x.id === id);
    assert.strictEqual(s.status, "paused", "the session outlives the client that attached");
    const bps = await rest("GET", `/api/debug/${id}/breakpoints`);
    assert.strictEqual(bps.breakpoints.length, 0, "the client's breakpoints leave with it");
    await rest("POST", "/api/trace/stop", { id });
    report("detach", { status: s.status });
  };
}

// Attach to a node started with --inspect-brk by someone else: traced's attach, through DAP.
async function attachInspector(dc) {
  const { spawn } = require("node:child_process");
  const child = spawn(process.execPath, ["--inspect-brk=127.0.0.1:0", app], { stdio: ["ignore", "ignore", "pipe"] });
  const wsUrl = await new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
      const m = /ws:\/\/\S+/.exec(err);
      if (m) resolve(m[0]);
    });
    child.on("exit", () => reject(new Error("node exited: " + err)));
  });
  try {
    await dc.initializeRequest();
    const init = dc.waitForEvent("initialized");
    const entry = dc.waitForEvent("stopped");
    await dc.attachRequest({ wsUrl });
    await init;
    await entry;
    await dc.setBreakpointsRequest({ source: { path: app }, breakpoints: [{ line: 11 }] });
    await dc.configurationDoneRequest();
    await Promise.all([dc.continueRequest({ threadId: 1 }), dc.assertStoppedLocation("breakpoint", { path: app, line: 11 })]);
    report("inspector", {});
    await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent("terminated")]);
  } finally {
    child.kill();
  }
}

// Shared control: a breakpoint set and a continue made through REST show in the DAP client.
async function shared(dc) {
  const sid = sessionOf(dc);
  const continued = collect(dc, "continued");
  await Promise.all([dc.configurationSequence(), dc.launch({ program: app, stopOnEntry: true }),
    dc.assertStoppedLocation("entry", { path: app })]);
  const id = await sid;
  // The editor sees a breakpoint another client sets at once, before anything runs.
  const shown = dc.waitForEvent("breakpoint");
  await rest("POST", `/api/debug/${id}/breakpoints`, { location: "dapclient/app.js:8" });
  const bp = (await shown).body;
  assert.strictEqual(bp.reason, "new");
  assert.strictEqual(bp.breakpoint.line, 8);
  const hit = dc.waitForEvent("stopped");
  await dc.continueRequest({ threadId: 1 });
  const stop = (await hit).body;
  assert.strictEqual(stop.reason, "breakpoint");
  assert.strictEqual(stop.hitBreakpointIds.length, 1);
  assert.strictEqual(bp.breakpoint.id, stop.hitBreakpointIds[0]);
  assert.strictEqual(bp.breakpoint.line, 8);
  report("restBreakpoint", { reason: stop.reason });
  const again = dc.waitForEvent("stopped");
  await rest("POST", `/api/debug/${id}/continue`, { waitMs: 0 });
  await again;
  assert.ok(continued.length >= 2, "continued events: " + continued.length);
  report("restContinue", { continued: continued.length });
  const removed = dc.waitForEvent("breakpoint");
  await rest("DELETE", `/api/debug/${id}/breakpoints/all`);
  const gone = (await removed).body;
  assert.strictEqual(gone.reason, "removed");
  assert.strictEqual(gone.breakpoint.id, bp.breakpoint.id);
  report("restRemoved", { reason: gone.reason });
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent("terminated")]);
}

// Function breakpoints and hit conditions as editors write them: add pauses at every 2nd call
// only (the 2nd: add(0, 1)), the loop's line from its 3rd hit on (i is 2); the 3rd call runs.
async function functions(dc) {
  const stopped = collect(dc, "stopped");
  await Promise.all([
    dc.waitForEvent("initialized")
      .then(() => dc.customRequest("setFunctionBreakpoints", { breakpoints: [{ name: "add", hitCondition: "%2" }] }))
      .then((r) => assert.ok(r.body.breakpoints[0].verified, JSON.stringify(r.body)))
      .then(() => dc.setBreakpointsRequest({ source: { path: app }, breakpoints: [{ line: 8, hitCondition: ">2" }] }))
      .then(() => dc.configurationDoneRequest()),
    dc.launch({ program: app }),
    dc.assertStoppedLocation("function breakpoint", { path: app }),
  ]);
  let top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
  assert.strictEqual(top.name, "add");
  const b = await dc.evaluateRequest({ expression: "b", frameId: top.id, context: "watch" });
  assert.strictEqual(b.body.result, "1", "the 2nd call of add");
  assert.strictEqual(stopped[0].allThreadsStopped, false, "traced pauses one thread: " + JSON.stringify(stopped[0]));
  report("functionBreakpoint", { b: b.body.result });
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.assertStoppedLocation("breakpoint", { path: app, line: 8 })]);
  top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
  const i = await dc.evaluateRequest({ expression: "i", frameId: top.id, context: "watch" });
  assert.strictEqual(i.body.result, "2", "the loop's 3rd hit");
  report("hitCondition", { i: i.body.result });
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.assertOutput("stdout", "total 3 traced"), dc.waitForEvent("terminated")]);
  assert.strictEqual(stopped.length, 2, "no stop at add's 3rd call: " + JSON.stringify(stopped));
}

// The caught filter stops at a throw a handler catches, with the throwing frame's locals, and
// exceptionInfo carries traced's evidence of the session.
async function caught(dc) {
  await Promise.all([
    dc.waitForEvent("initialized").then(() => dc.setExceptionBreakpointsRequest({ filters: ["caught"] }))
      .then(() => dc.configurationDoneRequest()),
    dc.launch({ program: throws }),
    dc.assertStoppedLocation("exception", { path: throws, line: 2 }),
  ]);
  const top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
  const s = await dc.evaluateRequest({ expression: "s", frameId: top.id, context: "watch" });
  assert.ok(s.body.result.includes("{"), "the throwing frame's local: " + s.body.result);
  const info = await dc.exceptionInfoRequest({ threadId: 1 });
  assert.strictEqual(info.body.breakMode, "always");
  assert.ok(/JSON/.test(info.body.description), "description: " + info.body.description);
  report("caught", { id: info.body.exceptionId, breakMode: info.body.breakMode });
  const [stack, evidence] = info.body.details.stackTrace.split("traced evidence:");
  assert.ok(/at parse \(dapclient\/throws\.js:2\)/.test(stack), "the throw's stack: " + stack);
  assert.ok(/SyntaxError.*dapclient\/throws\.js:2/.test(evidence || ""), "traced's evidence in the details: " + evidence);
  report("evidence", {});
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.assertStoppedLocation("exception", { path: throws, line: 5 })]);
  // Standing at the uncaught TypeError, the evidence names it, not the caught SyntaxError the
  // program printed before (node reports the uncaught one only once it runs on).
  const at = (await dc.exceptionInfoRequest({ threadId: 1 })).body.details.stackTrace.split("traced evidence:")[1] || "";
  assert.ok(/TypeError.*dapclient\/throws\.js:5/.test(at) && !/SyntaxError/.test(at.split("\n")[0]), "evidence at the uncaught stop: " + at);
  report("evidenceAtStop", {});
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent("terminated")]);
}

// The start options REST has: pauseOnExceptionClasses narrows the all filter to TypeError (the
// caught SyntaxError does not stop), creationStacks names where the timer was made.
async function launchOptions(dc) {
  const sid = sessionOf(dc);
  await Promise.all([
    dc.waitForEvent("initialized").then(() => dc.setExceptionBreakpointsRequest({ filters: ["all"] }))
      .then(() => dc.configurationDoneRequest()),
    dc.launch({ program: options, pauseOnExceptionClasses: ["TypeError"], creationStacks: true }),
    dc.assertStoppedLocation("exception", { path: options, line: 4 }),
  ]);
  report("exceptionClasses", {});
  const alive = await rest("GET", `/api/debug/${await sid}/alive`);
  const timer = alive.targets[0].keeping.find((h) => h.kind === "interval");
  assert.ok(timer && /options\.js:2$/.test(timer.createdAt), "the timer's creation: " + JSON.stringify(alive.targets[0]));
  report("creationStacks", { createdAt: timer.createdAt });
  await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent("terminated")]);
}

// A worker's frames and variables stay valid while the main thread stops and runs on, and end
// when the worker resumes.
async function refs(dc) {
  await Promise.all([
    dc.waitForEvent("initialized").then(() => dc.setBreakpointsRequest({ source: { path: twoThreads }, breakpoints: [{ line: 4 }] }))
      .then(() => dc.configurationDoneRequest()),
    dc.launch({ program: twoThreads }),
  ]);
  const worker = (await nextEvent(dc, "stopped", () => true)).threadId;
  assert.notStrictEqual(worker, 1, "the worker stops");
  const frame = (await dc.stackTraceRequest({ threadId: worker })).body.stackFrames[0];
  const locals = (await dc.scopesRequest({ frameId: frame.id })).body.scopes.find((s) => s.presentationHint === "locals");
  const who = async () => (await dc.variablesRequest({ variablesReference: locals.variablesReference })).body.variables
    .find((v) => v.name === "who").value;
  assert.ok((await who()).includes("worker"));
  // The main thread stops at the tick and runs on; the worker's refs hold throughout.
  const mainStop = nextEvent(dc, "stopped", (b) => b.threadId === 1);
  await dc.setBreakpointsRequest({ source: { path: twoThreads }, breakpoints: [{ line: 4 }, { line: 11 }] });
  await mainStop;
  assert.ok((await who()).includes("worker"), "the worker's variables after the main thread stopped");
  await dc.setBreakpointsRequest({ source: { path: twoThreads }, breakpoints: [] });
  const mainRuns = nextEvent(dc, "continued", (b) => b.threadId === 1);
  await dc.continueRequest({ threadId: 1 });
  await mainRuns;
  assert.ok((await who()).includes("worker"), "the worker's variables after the main thread ran on");
  await dc.scopesRequest({ frameId: frame.id });
  report("otherThread", {});
  const workerRuns = nextEvent(dc, "continued", (b) => b.threadId === worker);
  await Promise.all([dc.continueRequest({ threadId: worker }), workerRuns]);
  await assert.rejects(who(), /resumed/, "the worker's variables end when it resumes");
  report("ownThread", {});
  await dc.waitForEvent("terminated");
}

// The service's listener refuses a client whose launch gives a wrong token, or none.
async function refused(dc) {
  const before = (await rest("GET", "/api/trace/list")).sessions.length;
  await dc.initializeRequest();
  await assert.rejects(dc.launchRequest({ program: app, token: "not-the-token" }), /401|token|unauthori[sz]ed/i);
  await assert.rejects(dc.launchRequest({ program: app, token: "" }), /401|token|unauthori[sz]ed/i);
  const after = (await rest("GET", "/api/trace/list")).sessions.length;
  assert.strictEqual(after, before, "no session started");
  report("refused", {});
}

async function main() {
  for (const [name, fn] of [["basics", basics], ["typescript", typescript], ["pending", pending], ["threads", threads], ["exceptions", exceptions],
    ["features", features], ["shared", shared], ["async", asyncStack], ["pause", pauseTerminate],
    ["attach", attachSession], ["inspector", attachInspector], ["functions", functions], ["caught", caught],
    ["options", launchOptions], ["refs", refs], ["refused", refused]]) {
    if (process.argv[3] && process.argv[3] !== name) continue;
    await withClient(fn);
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err && err.stack || String(err));
  process.exit(1);
});

// Scripts a debugging session of `traced dap` on stdio with node-debugprotocol-client, a second
// DAP client nobody here wrote (beside Microsoft's DebugClient in ../dapclient). Usage: node
// session.js <traced binary>, with the service's address and token in the environment as the
// CLI reads them. Each check prints one JSON line {step, ...}; a failed check throws, and the
// script exits 1 with the error on stderr.
"use strict";
const assert = require("node:assert");
const path = require("node:path");
const { spawn } = require("node:child_process");
const { StreamDebugClient } = require("node-debugprotocol-client");

const traced = process.argv[2];
const program = path.join(__dirname, "greet.js");
const timeoutMs = 20000;

function report(step, detail) {
  console.log(JSON.stringify({ step, ...detail }));
}

// next resolves to the body of the next event of a kind, or fails after timeoutMs.
function next(client, kind) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.unsubscribe();
      reject(new Error(`no ${kind} event in ${timeoutMs} ms`));
    }, timeoutMs);
    const sub = client.onEvent(kind, (body) => {
      clearTimeout(timer);
      sub.unsubscribe();
      resolve(body);
    });
  });
}

async function session(client) {
  const caps = await client.initialize({ clientID: "node-debugprotocol-client", adapterID: "traced",
    linesStartAt1: true, columnsStartAt1: true, pathFormat: "path" });
  assert.ok(caps.supportsConfigurationDoneRequest, "capabilities: " + JSON.stringify(caps));
  const initialized = next(client, "initialized");
  await client.launch({ program });
  await initialized;
  const set = await client.setBreakpoints({ source: { path: program }, breakpoints: [{ line: 4 }] });
  assert.ok(set.breakpoints[0].verified, "breakpoint: " + JSON.stringify(set.breakpoints));
  report("setBreakpoints", { line: set.breakpoints[0].line });
  const stopped = next(client, "stopped");
  await client.configurationDone();
  const stop = await stopped;
  assert.strictEqual(stop.reason, "breakpoint");
  assert.strictEqual(stop.allThreadsStopped, false, "one thread stops: " + JSON.stringify(stop));
  report("stopped", { thread: stop.threadId });
  const { threads } = await client.threads();
  const thread = threads.find((t) => t.id === stop.threadId);
  assert.ok(thread, "the stopped thread in " + JSON.stringify(threads));
  report("threads", { name: thread.name });
  const { stackFrames } = await client.stackTrace({ threadId: stop.threadId });
  const top = stackFrames[0];
  assert.deepStrictEqual([top.name, top.line, top.source.path], ["greet", 4, program]);
  report("stackTrace", { frame: top.name, line: top.line });
  const { scopes } = await client.scopes({ frameId: top.id });
  const local = scopes.find((s) => s.presentationHint === "locals");
  assert.ok(local, "a locals scope in " + JSON.stringify(scopes));
  const { variables } = await client.variables({ variablesReference: local.variablesReference });
  const greeting = variables.find((v) => v.name === "greeting");
  assert.ok(greeting && greeting.value.includes("hello traced"), "greeting in " + JSON.stringify(variables));
  report("variables", { greeting: greeting.value });
  const ev = await client.evaluate({ expression: "greeting.length + name.length", frameId: top.id, context: "repl" });
  assert.strictEqual(ev.result, "18");
  report("evaluate", { result: ev.result });
  const exited = next(client, "exited");
  const terminated = next(client, "terminated");
  await client.continue({ threadId: stop.threadId });
  assert.strictEqual((await exited).exitCode, 0);
  await terminated;
  report("terminated", {});
  await client.disconnect({});
}

async function main() {
  const adapter = spawn(traced, ["dap"], { stdio: ["pipe", "pipe", "inherit"] });
  const ended = new Promise((resolve) => adapter.on("exit", (code, signal) => resolve({ code, signal })));
  const client = new StreamDebugClient({ loggerName: "session.js" });
  client.connectAdapter(adapter.stdout, adapter.stdin);
  try {
    await session(client);
  } catch (err) {
    adapter.kill(); // it outlives this script no more than the session it debugged
    throw err;
  } finally {
    client.disconnectAdapter();
    adapter.stdin.end();
  }
  const end = await ended; // the adapter ends on disconnect
  assert.deepStrictEqual(end, { code: 0, signal: null }, "traced dap's exit");
  report("disconnected", {});
}

main().then(() => process.exit(0), (err) => {
  console.error(err && err.stack || String(err));
  process.exit(1);
});

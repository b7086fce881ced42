// traced's preload, run before the main script of every node process of a session's tree
// (NODE_OPTIONS --require), in its main thread.
//
// 1. Node hands its own flags (process.execArgv) to each fork and worker it starts: the inspector
//    flags traced launched the program with would leave each child waiting for a debugger that
//    never comes. They are dropped, so children start as if node had been run without them.
// 2. A process without an inspector (a child: forked, spawned, through a shell or npm) opens one
//    on loopback, says where on traced's announce FIFO and waits for traced to set it up. When
//    traced is not reading the FIFO (gone, replaced by a file, or the process left the session),
//    opening it fails at once and the process runs on untraced: it never waits for a debugger
//    that will not come. It waits here, not in node's waitForDebugger, which only an inspector
//    session can end: traced lets it go through its inspector (Runtime.evaluate of the go-ahead
//    below) or, when that cannot be reached, by creating the release file of its pid beside
//    the FIFO (children.go).
// 3. An exception about to end the process: node emits uncaughtExceptionMonitor first, for an
//    ESM top-level await's rejection too, which V8 predicts caught and so never pauses at. The
//    debugger statement lets traced stop there when the user's exception mode asks for uncaught
//    exceptions and it has not stopped at this one yet; otherwise traced lets it go at once.
"use strict";
process.execArgv = process.execArgv.filter((a) => !/^--(inspect|debug)/.test(a));

const { isMainThread } = require("node:worker_threads");
const inspector = require("node:inspector");
const announce = process.env.TRACED_ANNOUNCE;
if (isMainThread && announce && !inspector.url()) {
  const fs = require("node:fs");
  let fd = -1;
  try {
    fd = fs.openSync(announce, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    // A regular file put in the FIFO's place has no reader: nobody would come.
    if (!fs.fstatSync(fd).isFIFO()) throw new Error("not traced's FIFO");
    inspector.open(0, "127.0.0.1", false);
    const line = JSON.stringify({ pid: process.pid, ppid: process.ppid, url: inspector.url(),
      argv: process.argv.slice(1, 4).map((a) => String(a).slice(0, 200)) });
    fs.writeSync(fd, line + "\n"); // one write under PIPE_BUF: never interleaved with another's
    fs.closeSync(fd);
    fd = -1;
    waitForTraced(fs, announce + "." + process.pid);
  } catch {
    if (fd >= 0) fs.closeSync(fd);
    if (inspector.url()) inspector.close();
  }
}

// waitForTraced waits for traced's go-ahead. Atomics.wait sleeps in V8, which wakes it for each
// inspector message and dispatches it there, as node's waitForDebugger does; the go-ahead ends
// the wait at once, the release file within a poll. Nothing in it throws: an exception mode of
// traced's may already stand.
function waitForTraced(fs, release) {
  const go = new Int32Array(new SharedArrayBuffer(4));
  const key = Symbol.for("traced.go");
  if (globalThis[key] === true) { // the go-ahead came before the wait (node 20's --test child is t0)
    delete globalThis[key];
    return;
  }
  Object.defineProperty(globalThis, key, { configurable: true, value() { Atomics.store(go, 0, 1); Atomics.notify(go, 0); } });
  let released = false;
  while (Atomics.load(go, 0) === 0 && !(released = fs.existsSync(release))) Atomics.wait(go, 0, 0, 50);
  delete globalThis[key];
  if (released) fs.rmSync(release, { force: true });
}

process.on("uncaughtExceptionMonitor", function tracedUncaught(error, origin) {
  debugger; // eslint-disable-line no-debugger
});

// The main process checks that its main script is the file traced checked (mainguard.cjs).
if (isMainThread && process.env.TRACED_MAIN_CHECK) require("./mainguard.cjs");

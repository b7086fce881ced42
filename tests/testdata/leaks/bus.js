// A leak of the kind real services have: each handled request subscribes a listener to a
// long-lived bus and never unsubscribes; the closure keeps the request's Session alive
// (tests/heapwhy_test.go). handle() is the load the test drives; noleak() allocates as much and
// keeps nothing.
const EventEmitter = require("node:events");
const { Session } = require("./lib/session.js");

// Exported, and in lib/session.js, so that every command of the skill's leak recipe runs here
// (tests/heapwhy_surfaces_test.go): `instances` reaches a module-scoped class either way.
module.exports = { Session };

// handle starts at line 18 and its listener at line 20: the tests and the README name them.

const bus = new EventEmitter();
bus.setMaxListeners(0);
let n = 0;

globalThis.handle = function handle() {
  const session = new Session(++n);
  bus.on("settings", function onSettings() {
    return session.id;
  });
};

globalThis.noleak = function noleak() {
  const session = new Session(++n);
  return session.scratch.length;
};

setInterval(() => {}, 1000); // a server's life: it runs until stopped
console.log("ready");

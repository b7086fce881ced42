'use strict';
// Fixture of the alive tests: a module node loads with --require, before the main script, its
// bootstrap not over: process.stdout is not made yet. A MessagePort with a listener keeps the
// loop alive; a breakpoint stops at line 7.
const { port1 } = new MessageChannel();
port1.on('message', () => {});
globalThis.earlyPort = port1;

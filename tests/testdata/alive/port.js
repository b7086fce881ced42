'use strict';
// Fixture of the alive tests: a MessagePort listening for messages that never come.
const { MessageChannel } = require('node:worker_threads');
const { port1 } = new MessageChannel();
port1.on('message', () => {});
console.log('ready');

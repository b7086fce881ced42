'use strict';
// A MessagePort listening for messages that will never come.
const { MessageChannel } = require('node:worker_threads');
const { port1 } = new MessageChannel();
port1.on('message', () => {});

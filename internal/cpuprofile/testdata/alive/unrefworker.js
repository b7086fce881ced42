'use strict';
// An unref'd worker thread: it lets the process exit.
const { Worker } = require('node:worker_threads');
new Worker('setInterval(() => {}, 1000)', { eval: true }).unref();

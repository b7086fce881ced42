'use strict';
// A worker thread that never ends.
const { Worker } = require('node:worker_threads');
new Worker('setInterval(() => {}, 1000)', { eval: true });

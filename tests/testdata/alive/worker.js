'use strict';
// Fixture of the alive tests: a worker thread that never ends.
const { Worker } = require('node:worker_threads');
new Worker('setInterval(() => {}, 1000); console.log("ready")', { eval: true });

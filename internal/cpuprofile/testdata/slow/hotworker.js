'use strict';
// The hot work runs in a worker thread; the main thread only waits for it.
const path = require('node:path');
const { Worker } = require('node:worker_threads');

new Worker(path.join(__dirname, 'inline.js'), { argv: ['5e6'] });

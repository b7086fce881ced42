'use strict';
// Fixture of the slow tests: the hot work runs in a worker thread (inline.js); the main thread
// only waits for it.
const path = require('node:path');
const { Worker } = require('node:worker_threads');

new Worker(path.join(__dirname, 'inline.js'));

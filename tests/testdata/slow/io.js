'use strict';
// Fixture of the slow tests: one 4 MB read after another (from /dev/zero: no file to clean up),
// each waited for, little work between the waits. Runs until stopped.
const fs = require('node:fs');

const buf = Buffer.alloc(4 << 20);
const fd = fs.openSync('/dev/zero', 'r');
function next() {
  fs.read(fd, buf, 0, buf.length, null, () => next());
}
console.log('ready');
next();

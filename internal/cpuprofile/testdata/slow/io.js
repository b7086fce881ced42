'use strict';
// I/O-bound: one file read after another, each waited for; little work between the waits.
const fs = require('node:fs');
const path = require('node:path');

const file = path.join(__dirname, 'io.bin');
let reads = 0;
let until;
function next() {
  if (Date.now() > until) {
    fs.unlink(file, () => console.log('reads', reads));
    return;
  }
  fs.readFile(file, () => {
    reads++;
    next();
  });
}
fs.writeFile(file, Buffer.alloc(4 << 20), () => {
  until = Date.now() + 1500;
  next();
});

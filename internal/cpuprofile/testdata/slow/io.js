'use strict';
// I/O-bound: each step waits on a child process and the file system, with little work between.
const { execFile } = require('node:child_process');
const fs = require('node:fs');

let left = 15;
function step() {
  execFile('sleep', ['0.1'], () => {
    fs.readFile(__filename, () => {
      if (--left > 0) step();
    });
  });
}
step();

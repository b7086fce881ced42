'use strict';
// Fixture of the alive tests: a child process still running (in the program's process group,
// so it ends with it).
const { spawn } = require('node:child_process');
spawn('sleep', ['30'], { stdio: 'ignore' });
console.log('ready');

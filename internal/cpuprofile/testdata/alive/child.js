'use strict';
// A child process still running.
const { spawn } = require('node:child_process');
spawn('sleep', ['30']);

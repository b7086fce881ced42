'use strict';
// Fixture of the alive tests: a forgotten interval, nothing clears it (line 3).
setInterval(function poll() {}, 1000);
console.log('ready');

'use strict';
// Fixture of the alive tests: an unref'd timer, listed as not keeping the program alive; an
// interval keeps it running for the question.
setTimeout(function late() {}, 60000).unref();
setInterval(function keep() {}, 1000);
console.log('ready');

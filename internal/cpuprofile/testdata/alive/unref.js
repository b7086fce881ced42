'use strict';
// An unref'd timer: it lets the process exit.
setTimeout(function late() {}, 60000).unref();

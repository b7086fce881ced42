'use strict';
// A forgotten interval: nothing clears it.
setInterval(function poll() {}, 1000);

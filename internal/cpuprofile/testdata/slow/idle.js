'use strict';
// Idle: nothing to do but wait for one timer.
setTimeout(() => {}, 3000);

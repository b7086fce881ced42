// node --test has describe and it in node:test, not as globals as mocha gives them: this
// preload lends them, so that a mocha-style suite runs unchanged under node --test.
const { describe, it, before, after, beforeEach, afterEach } = require("node:test");
Object.assign(globalThis, { describe, it, before, after, beforeEach, afterEach });

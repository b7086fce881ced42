// The request state of leaks/bus.js, in a module of its own: the skill's leak recipe reaches a
// module-scoped class through the module that exports it.
class Session {
  constructor(i) {
    this.id = i;
    this.scratch = new Array(16).fill(i);
  }
}

module.exports = { Session };

'use strict';
// Measures a fixture's event loop with the loop snippets, evaluated through an in-process
// inspector session as the engine does through its own, and prints the read-back answer.
// Usage: node loopharness.js fixture.js windowMs, the snippets in $TRACED_SNIPPETS (JSON).
const inspector = require('node:inspector');
const path = require('node:path');

const snippets = JSON.parse(process.env.TRACED_SNIPPETS);
const session = new inspector.Session();
session.connect();
const evaluate = (expression) =>
  new Promise((resolve, reject) => {
    session.post('Runtime.evaluate', { expression, returnByValue: true }, (err, res) => {
      if (err || res.exceptionDetails) reject(err || new Error(JSON.stringify(res.exceptionDetails)));
      else resolve(res.result.value);
    });
  });

evaluate(snippets.start).then(() => {
  require(path.resolve(process.argv[2]));
  setTimeout(async () => {
    const stats = await evaluate(snippets.read);
    process.stdout.write(stats + '\n', () => process.exit(0));
  }, Number(process.argv[3]));
});

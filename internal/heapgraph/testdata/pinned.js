// Fixture of the heapgraph tests: an object only the inspector holds (a remote object of an
// object group, as traced's refs are) must not look retained. `node pinned.js <file>` writes
// the snapshot, taken through the inspector as traced takes it.
'use strict';
const inspector = require('inspector');
const fs = require('fs');

const session = new inspector.Session();
session.connect();
const expr = '(() => { class PinnedByInspector { constructor() { this.data = new Array(100).fill(1); } } return new PinnedByInspector(); })()';
session.post('Runtime.evaluate', { expression: expr, objectGroup: 'traced' }, (err) => {
  if (err) throw err;
  // A later turn: no handle scope of this callback holds the result any more.
  setImmediate(() => {
    const chunks = [];
    session.on('HeapProfiler.addHeapSnapshotChunk', (m) => chunks.push(m.params.chunk));
    session.post('HeapProfiler.takeHeapSnapshot', {}, (err2) => {
      if (err2) throw err2;
      fs.writeFileSync(process.argv[2], chunks.join(''));
      session.disconnect();
    });
  });
});

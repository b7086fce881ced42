// Fixture of the heap snapshot benchmark: fill(n) keeps n more Record objects alive (each with a
// short string and a small array), about 110 bytes of heap apiece.
class Record {
  constructor(i) {
    this.id = i;
    this.name = 'record-' + i;
    this.tags = [i, i + 1];
  }
}
globalThis.kept = [];
globalThis.fill = (n) => {
  for (let i = 0; i < n; i++) kept.push(new Record(kept.length));
  return kept.length;
};
setInterval(() => {}, 1000);

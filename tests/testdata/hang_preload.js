// Preloaded with --require: blocks before the main script, so node never reaches its first line.
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);

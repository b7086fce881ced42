// traced's guard of a session's main script, required by the preload in the main process only
// (TRACED_MAIN_CHECK, removed here so that no child inherits it). traced checked the script
// inside the workspace root and noted its file (dev, ino); a directory of its path swapped for a
// symlink since would make node load another file. Any main is checked here, just before node
// resolves it; a mismatch ends the process before any of the program runs. Node resolves and
// reads the main after this, so a swap in between is caught where it reads:
//  - a CommonJS main is compiled only when node resolved it to that path and the file there is
//    that file (a loader such as tsx may have transformed its content);
//  - module hooks (mainhooks.cjs) refuse a main node resolved elsewhere and hand node the source
//    read from the checked file itself, for an ES module main too.
"use strict";
const fs = require("node:fs");
const Module = require("node:module");
const want = JSON.parse(process.env.TRACED_MAIN_CHECK);
delete process.env.TRACED_MAIN_CHECK;

function refuse(what) {
  process.stderr.write(`traced: refused to run ${what}: it is not the file traced checked inside the workspace root (${want.file}); was a directory swapped for a symlink?\n`);
  process.exit(126);
}

// same says whether filename is the checked file, by its inode.
function same(filename) {
  let fd = -1;
  try {
    fd = fs.openSync(filename, "r");
    const st = fs.fstatSync(fd, { bigint: true });
    return String(st.dev) === want.dev && String(st.ino) === want.ino;
  } catch {
    return false;
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}

// As early as can be: the main path node was given already leads to the checked file.
let early = "";
try { early = fs.realpathSync(process.argv[1]); } catch {}
if (early !== want.file || !same(early)) refuse(early || process.argv[1]);

const hooks = require("./mainhooks.cjs").guard(want, refuse);

const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename, ...rest) {
  if (this.id === ".") { // the main module
    Module.prototype._compile = compile;
    if (filename !== want.file || !same(filename)) refuse(filename);
    hooks.done(); // its content was read (a module found in it is compiled from that content)
  }
  return compile.call(this, content, filename, ...rest);
};

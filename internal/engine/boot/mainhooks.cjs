// traced's module hooks for a session's main script (mainguard.cjs), so that node runs the very
// file traced checked even when a directory of its path is swapped for a symlink between the
// guard's check and node's read: the main's resolution must land on the checked path, and its
// source is read from the file opened there when it is the checked file (dev, ino).
//
// Node 22.15+ runs hooks in-thread (module.registerHooks), for CommonJS and ES module mains
// alike; they are removed once the main was read, so the program's own modules load as without
// them. Older nodes only have module.register, whose hooks thread costs a start noticeably: it
// serves a main node loads as an ES module only (a CommonJS main the guard checks itself).
//
// A loader the user added (--import, --loader) may transform the main's source: then it is not
// replaced, only its file checked.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");
const { pathToFileURL } = require("node:url");

// checkedSource reads the main from the file at its path when that is the checked file, else
// answers null.
function checkedSource(want) {
  let fd = -1;
  try {
    fd = fs.openSync(want.file, "r");
    const st = fs.fstatSync(fd, { bigint: true });
    if (String(st.dev) !== want.dev || String(st.ino) !== want.ino) return null;
    return fs.readFileSync(fd);
  } catch {
    return null;
  } finally {
    if (fd >= 0) fs.closeSync(fd);
  }
}

// checked is the main's source as node will run it: the checked file's, unless a user's loader
// made its own (then the file must still be the checked one). null refuses it.
function checked(want, source) {
  const own = checkedSource(want);
  if (own === null) return null;
  if (want.loaders) return source;
  return typeof source === "string" ? own.toString("utf8") : own;
}

const refusal = (what, want) => `traced: refused to run ${what}: it is not the file traced checked inside the workspace root (${want.file}); was a directory swapped for a symlink?`;

// esModule says whether node may load file as an ES module (node 20 reads "type" alike; a .js
// file with ES syntax and no "type" node 20 leaves to CommonJS unless told to detect it). It
// fails toward yes: a directory that cannot be listed (one being swapped for a symlink is gone
// for a moment) or a package.json that cannot be read registers the hooks.
function esModule(file) {
  if (/\.mjs$/.test(file)) return true;
  if (/\.cjs$/.test(file)) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    let names;
    try {
      names = fs.readdirSync(dir);
    } catch (e) {
      if (e.code === "ENOENT" || e.code === "ENOTDIR") return true;
      names = fs.existsSync(path.join(dir, "package.json")) ? ["package.json"] : []; // unlistable
    }
    if (names.includes("package.json")) {
      try { return JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).type === "module"; } catch { return true; }
    }
    if (path.dirname(dir) === dir) return false;
  }
}

// guard registers the hooks for the checked main want and answers done, which removes them
// where node can (the main module has been read).
exports.guard = function guard(want, refuse) {
  const url = pathToFileURL(want.file).href;
  const opts = [...process.execArgv, process.env.NODE_OPTIONS || ""].join(" ");
  want = { ...want, url, loaders: /--(import|loader|experimental-loader)\b/.test(opts) };
  if (typeof Module.registerHooks === "function") {
    let hooks = null;
    const done = () => { if (hooks && typeof hooks.deregister === "function") hooks.deregister(); hooks = null; };
    hooks = Module.registerHooks({
      resolve(specifier, context, next) {
        const r = next(specifier, context);
        // The main's: a CommonJS main by its path, an ES module by its URL; a --require
        // preload has no parent either, but is neither.
        const main = context.parentURL === undefined && (specifier === process.argv[1] || String(specifier).startsWith("file:"));
        if (main && r.url !== url) refuse(r.url);
        return r;
      },
      load(u, context, next) {
        const r = next(u, context);
        if (u !== url || r.source == null) return r;
        const source = checked(want, r.source);
        if (source === null) refuse(want.file);
        if (r.format !== undefined && !String(r.format).startsWith("commonjs")) done(); // an ES module: read
        return { ...r, source };
      },
    });
    return { done };
  }
  if (typeof Module.register === "function" && esModule(want.file)) {
    Module.register(pathToFileURL(__filename).href, { data: want });
  }
  return { done() {} };
};

// The hooks thread's side (module.register): want comes as initialize's data.
let want = null;
exports.initialize = function initialize(data) { want = data; };

exports.resolve = async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (want && context.parentURL === undefined && r.url !== want.url) throw new Error(refusal(r.url, want));
  return r;
};

exports.load = async function load(u, context, next) {
  const r = await next(u, context);
  if (!want || u !== want.url || r.source == null) return r;
  const source = checked(want, r.source);
  if (source === null) throw new Error(refusal(want.file, want));
  if (r.format === "module") want = null; // read: the hooks pass everything on from now
  return { ...r, source };
};

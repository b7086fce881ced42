// profiles.js: a debug session's CPU profile (top functions by self time, as bars, with their hot
// lines), heap diff (top constructors by size change), and the one-call answers of why it is slow
// and what keeps it running. The page keeps what it took per session while open.

import { call, debugPath } from "./api.js";
import { el, bytes, where } from "./format.js";
import { live } from "./sessions.js";

const TOP = 10;
// HELD is how many growing constructors the diff asks what holds them (one call each).
const HELD = 3;
// SLOW_MS is the window of "Why slow?": long enough for a few stalls, short enough to wait for.
const SLOW_MS = 2000;

export class Profiles {
  constructor() {
    this.cpu = document.getElementById("cpu");
    this.heap = document.getElementById("heap");
    this.err = document.getElementById("prof-error");
    this.note = document.getElementById("prof-note");
    this.why = document.getElementById("why");
    this.buttons = ["cpu-start", "cpu-stop", "heap-snap", "heap-diff", "why-slow", "why-alive"].map((id) => document.getElementById(id));
    const [start, stop, snap, diff, slow, alive] = this.buttons;
    slow.onclick = () => this.run(slow, async () => {
      this.why.textContent = `Sampling every process and worker for ${SLOW_MS / 1000} s…`;
      const r = await call("POST", debugPath(this.id, "slow"), { windowMs: SLOW_MS });
      this.kept().why = r.text;
      this.why.textContent = r.text;
    });
    alive.onclick = () => this.run(alive, async () => {
      const r = await call("GET", debugPath(this.id, "alive"));
      this.kept().why = r.text;
      this.why.textContent = r.text;
    });
    start.onclick = () => this.run(start, async () => {
      await call("POST", debugPath(this.id, "cpu/start"), {});
      this.note.textContent = "CPU profiler running: stop it to see the top functions.";
    });
    stop.onclick = () => this.run(stop, async () => {
      const p = await call("POST", debugPath(this.id, "cpu/stop"), { top: TOP });
      this.kept().cpu = p;
      this.drawCPU(p);
    });
    snap.onclick = () => this.run(snap, async () => {
      const s = await call("POST", debugPath(this.id, "heap/snapshot"), { top: 5 });
      if (s.job) throw new Error(`snapshot still running as ${s.job}: try the diff once it is done`);
      this.kept().snaps.push(s.ref);
      this.note.textContent = `Heap snapshots taken: ${this.kept().snaps.join(", ")}.`;
    });
    diff.onclick = () => this.run(diff, async () => {
      const snaps = this.kept().snaps;
      if (snaps.length < 2) throw new Error("take two heap snapshots first (before and after what you suspect)");
      const d = await call("POST", debugPath(this.id, "heap/diff"), { from: snaps.at(-2), to: snaps.at(-1), top: TOP });
      if (d.job) throw new Error(`diff still running as ${d.job}`);
      d.held = await this.holders(d);
      this.kept().heap = d;
      this.drawHeap(d);
    });
    this.byId = new Map();
    this.use(null);
  }

  kept() {
    if (!this.byId.has(this.id)) this.byId.set(this.id, { cpu: null, heap: null, snaps: [], why: "" });
    return this.byId.get(this.id);
  }


  use(s) {
    this.id = s && s.mode === "debug" ? s.id : "";
    this.err.textContent = "";
    const liveDebug = this.id && live(s);
    for (const b of this.buttons) b.disabled = !liveDebug;
    this.note.textContent = liveDebug ? "Profile the running program: start and stop the CPU profiler, or take two heap snapshots and diff them."
      : "Profiles need a debug session that is still running.";
    const k = this.id ? this.kept() : { cpu: null, heap: null };
    if (k.cpu) this.drawCPU(k.cpu);
    else this.cpu.replaceChildren(el("p", { className: "muted" }, "No CPU profile yet."));
    if (k.heap) this.drawHeap(k.heap);
    else this.heap.replaceChildren(el("p", { className: "muted" }, "No heap diff yet."));
    this.why.textContent = k.why || "Ask why the program is slow (every target sampled for 2 s) or what keeps it running.";
  }

  async run(button, f) {
    const id = this.id;
    button.disabled = true;
    this.err.textContent = "";
    try {
      await f();
    } catch (e) {
      if (id === this.id) this.err.textContent = String(e);
    } finally {
      button.disabled = !this.id;
    }
  }

  drawCPU(p) {
    const rows = (p.self || []).slice(0, TOP);
    this.cpu.replaceChildren(
      el("p", { className: "muted" }, `${p.ref}: ${p.durationMs.toFixed(1)} ms, ${p.samples} samples (download: ${p.download})`),
      ...rows.flatMap((f) => [bar(`${f.function || "(anonymous)"} ${f.file ? where(f) : ""}`.trim(),
        f.selfPct, `${f.selfMs.toFixed(1)} ms self (${f.selfPct}%), ${f.totalPct}% total`),
      ...(hotLines(f) ? [el("p", { className: "muted held" }, hotLines(f))] : [])]));
  }

  // holders asks, for the constructors that grew most, what holds their instances in the later
  // snapshot: the first retainer path of each, shown under its bar.
  async holders(d) {
    const held = {};
    const grew = (d.classes || []).filter((c) => c.countDelta > 0).slice(0, HELD);
    for (const c of grew) {
      try {
        const a = await call("POST", debugPath(this.id, "heap/retainers"), { snapshot: d.to, class: c.name, top: 1 });
        const path = (a.text || "").split("\n").find((l) => l.startsWith("   ") && !l.trim().startsWith("accumulates"));
        if (path) held[c.name] = path.trim();
      } catch {
        // a class the analysis cannot name: its bar stands alone
      }
    }
    return held;
  }

  drawHeap(d) {
    const rows = (d.classes || []).slice(0, TOP);
    const most = Math.max(1, ...rows.map((c) => Math.abs(c.sizeDelta)));
    const held = d.held || {};
    this.heap.replaceChildren(
      el("p", { className: "muted" }, `${d.from} → ${d.to}: ${bytes(d.sizeDelta)} in all`),
      ...(rows.length ? rows.flatMap((c) => [bar(c.name, (100 * Math.abs(c.sizeDelta)) / most,
        `${bytes(c.sizeDelta)}, ${c.countDelta >= 0 ? "+" : ""}${c.countDelta} objects (now ${c.count})`, c.sizeDelta < 0),
        ...(held[c.name] ? [el("p", { className: "muted held" }, `held by: ${held[c.name]}`)] : [])])
        : [el("p", { className: "muted" }, "No constructor changed between the two snapshots.")]));
  }
}

// bar is one labelled horizontal bar; its width is set through the CSSOM (no inline style
// attribute, which the page's CSP forbids).
function bar(label, pct, value, negative) {
  const fill = el("span", { className: negative ? "fill neg" : "fill" });
  fill.style.width = `${Math.max(0.5, Math.min(100, pct))}%`;
  return el("div", { className: "barrow" },
    el("span", { className: "blabel", title: label }, label),
    el("span", { className: "btrack", "aria-hidden": "true" }, fill),
    el("span", { className: "bval" }, value));
}

// hotLines says where in a function its time went: its hottest lines, what V8 inlined it into
// (its lines were found in the caller's code), why V8 deoptimised it, what native code ran for.
function hotLines(f) {
  const parts = [];
  if (f.lines && f.lines.length) parts.push("hot lines " + f.lines.slice(0, 3).map((l) => `${l.file ? where(l) : l.line} (${l.pct}%)`).join(", "));
  if (f.inlinedInto && f.inlinedInto.length) parts.push("inlined into " + f.inlinedInto.join(", "));
  if (f.deopt) parts.push("deopt: " + f.deopt);
  if (f.runBy) parts.push("run by " + f.runBy);
  return parts.join(" · ");
}

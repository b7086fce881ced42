// debugger.js: a debug session's pause: the source around it with the current line, locals,
// stack and breakpoints, and the execution buttons. Every execution call answers the state at
// the next pause, which is drawn as it comes.

import { call, debugPath } from "./api.js";
import { el, where, frameItem } from "./format.js";

export class Debugger {
  constructor() {
    this.status = document.getElementById("dbg-status");
    this.err = document.getElementById("dbg-error");
    this.where = document.getElementById("dbg-where");
    this.source = document.getElementById("dbg-source");
    this.locals = document.querySelector("#dbg-locals tbody");
    this.stack = document.getElementById("dbg-stack");
    this.bps = document.getElementById("dbg-bps");
    this.buttons = ["dbg-continue", "dbg-over", "dbg-into", "dbg-out", "dbg-pause"].map((id) => document.getElementById(id));
    const [cont, over, into, out, pause] = this.buttons;
    cont.onclick = () => this.exec("continue", {});
    over.onclick = () => this.exec("step", { kind: "over" });
    into.onclick = () => this.exec("step", { kind: "into" });
    out.onclick = () => this.exec("step", { kind: "out" });
    pause.onclick = () => this.exec("pause", {});
    document.getElementById("bp-add").onsubmit = (e) => {
      e.preventDefault();
      this.addBreakpoint();
    };
    this.bps.onclick = (e) => {
      const b = e.target.closest("button[data-ref]");
      if (b) this.removeBreakpoint(b.dataset.ref);
    };
    this.id = "";
    this.busy = false;
    this.show(null);
  }

  // use switches the panel to session s (a summary), or to none.
  use(s) {
    this.id = s && s.mode === "debug" ? s.id : "";
    this.err.textContent = "";
    this.show(null);
    if (this.id) this.load();
    else this.status.textContent = s ? `${s.id} is a trace session: start one in debug mode to step.` : "No debug session selected.";
  }


  async load() {
    if (!this.id || this.busy) return;
    const id = this.id;
    try {
      const st = await call("GET", debugPath(this.id, "state")); // with the breakpoints and their hits
      if (id === this.id) this.show(st);
    } catch (e) {
      if (id === this.id) this.fail(e);
    }
  }

  async exec(op, body) {
    if (!this.id) return;
    const id = this.id;
    this.busy = true;
    this.err.textContent = "";
    this.status.textContent = op === "pause" ? "pausing…" : "running…";
    this.setEnabled(false, false);
    try {
      const st = await call("POST", debugPath(this.id, op), body);
      if (id === this.id) this.show(st);
    } catch (e) {
      if (id === this.id) this.fail(e);
    } finally {
      this.busy = false;
    }
  }

  // running shows that the program runs on (a resume came on the stream), asking nothing.
  running() {
    if (!this.id || this.busy) return;
    this.setEnabled(false, true);
    this.status.textContent = "running…";
  }

  // ended shows that the program is gone, once its exit event came.
  ended() {
    if (!this.id) return;
    this.id = "";
    this.setEnabled(false, false);
    this.status.textContent = "The program has ended.";
  }

  fail(e) {
    this.err.textContent = String(e);
    if (e.code === "finished" || e.code === "not_found") this.show(null);
    this.status.textContent = e.code === "finished" ? "The session has ended." : this.status.textContent;
    this.setEnabled(false, false);
  }

  setEnabled(paused, running) {
    const [cont, over, into, out, pause] = this.buttons;
    for (const b of [cont, over, into, out]) b.disabled = !paused;
    pause.disabled = !running;
  }

  show(st) {
    if (!st) {
      this.where.textContent = "Source";
      this.source.replaceChildren();
      this.locals.replaceChildren();
      this.stack.replaceChildren();
      this.bps.replaceChildren();
      this.setEnabled(false, false);
      return;
    }
    const paused = st.status === "paused";
    this.setEnabled(paused, st.status === "running");
    this.status.textContent = paused ? `paused (${st.reason}${st.hit && st.hit.length ? ": " + st.hit.join(", ") : ""}) at ${where(st.location)}` : st.status;
    this.where.textContent = paused ? `Source: ${where(st.location)}` : "Source";
    this.source.replaceChildren(...(st.source || []).map((l) =>
      el("li", { className: l.current ? "cur" : "", value: l.line, "aria-current": l.current ? "true" : null },
        el("span", { className: "ln", "aria-hidden": "true" }, String(l.line)), el("code", {}, l.text))));
    this.locals.replaceChildren(...(st.locals || []).map((v) =>
      el("tr", {}, el("th", { scope: "row" }, v.name), el("td", { className: "mono", title: v.type }, v.value))));
    this.stack.replaceChildren(...(st.stack || []).map((f) =>
      frameItem(f)));
    const cur = this.source.querySelector(".cur");
    if (cur) cur.scrollIntoView({ block: "nearest" });
    this.showBreakpoints(st.breakpoints || []);
  }

  showBreakpoints(list) {
    this.bps.replaceChildren(...list.map((b) =>
      el("li", {}, el("span", { className: "mono" }, `${b.ref} ${b.location}`),
        ` ${b.hits || 0} hit${b.hits === 1 ? "" : "s"}${b.enabled === false ? ", disabled" : ""} `,
        el("button", { type: "button", className: "small", "data-ref": b.ref, "aria-label": `Remove ${b.ref}` }, "Remove"))));
    if (!list.length) this.bps.replaceChildren(el("li", { className: "muted" }, "none"));
  }

  async addBreakpoint() {
    const input = document.getElementById("bp-loc");
    if (!this.id) return;
    try {
      await call("POST", debugPath(this.id, "breakpoints"), { location: input.value.trim() });
      input.value = "";
      this.load();
    } catch (e) {
      this.err.textContent = String(e);
    }
  }

  async removeBreakpoint(ref) {
    try {
      await call("DELETE", debugPath(this.id, "breakpoints/" + encodeURIComponent(ref)));
      this.load();
    } catch (e) {
      this.err.textContent = String(e);
    }
  }
}

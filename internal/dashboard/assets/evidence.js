// evidence.js: a session's failure evidence, shown as GET /api/trace/evidence gives it: the
// failure, the chain of events before it with their locations, the originating value, the
// confidence and the caveat (always shown: this is correlation, not causation).

import { call } from "./api.js";
import { el, where, frameItem } from "./format.js";

export class Evidence {
  constructor() {
    this.box = document.getElementById("evidence");
    this.pending = 0;
  }

  clear(note) {
    this.box.replaceChildren(el("p", { className: "muted" }, note || "Select a session."));
  }

  async load(id) {
    const n = ++this.pending;
    let r;
    try {
      r = await call("GET", "/api/trace/evidence?id=" + encodeURIComponent(id));
    } catch (e) {
      if (n === this.pending) this.clear(String(e));
      return;
    }
    if (n !== this.pending) return; // a newer load is on its way
    if (!r.evidence) {
      this.clear(`No evidence (${r.status}): ${r.reason || "no failure"}`);
      return;
    }
    this.render(r.evidence);
  }

  render(ev) {
    const f = ev.failure || {};
    const chain = (ev.previous_state_transitions || []).map((t) =>
      el("li", {}, el("span", { className: "seq" }, "#" + t.seq), " ", el("span", { className: "kind" }, t.kind), " ",
        t.summary, t.location ? el("span", { className: "loc" }, " at " + where(t.location)) : ""));
    const stack = (f.stack || []).map((fr) =>
      frameItem(fr));
    const out = [
      el("h3", { id: "ev-failure" }, "Failure"),
      el("p", { className: "failure" }, el("strong", {}, f.class ? `${f.class}: ` : `${f.kind}: `),
        f.message || "", f.location ? el("span", { className: "loc" }, " at " + where(f.location)) : ""),
      el("p", {}, el("span", { className: "conf conf-" + ev.confidence }, `confidence: ${ev.confidence}`), " ", ev.confidence_reason || ""),
      el("p", { className: "caveat" }, ev.caveat),
    ];
    // The tests the runner reported failing, as it named them, each with what it expected.
    const tests = ev.failing_tests || [];
    if (tests.length) {
      const more = ev.failing_tests_omitted ? ` (and ${ev.failing_tests_omitted} more)` : "";
      out.push(el("h3", {}, `Failing tests (${tests.length})${more}`), el("ol", { className: "chain" }, tests.map((t) =>
        el("li", {}, el("strong", {}, t.name), t.location ? el("span", { className: "loc" }, " at " + where(t.location)) : "",
          t.expected || t.received ? ` expected ${t.expected}, received ${t.received}` : ` ${(t.message || "").split("\n")[0]}`,
          t.locals && t.locals.length ? el("span", { className: "muted" }, " · " + t.locals.map((v) => `${v.name}=${v.value}`).join("  ")) : ""))));
    }
    if (ev.immediate_cause) {
      const c = ev.immediate_cause;
      out.push(el("h3", {}, "Closest earlier user event"),
        el("p", {}, `#${c.seq} ${c.kind}: ${c.summary}`, c.location ? el("span", { className: "loc" }, " at " + where(c.location)) : ""));
    }
    if (chain.length) out.push(el("h3", {}, "Events before the failure"), el("ol", { className: "chain" }, chain));
    if (ev.originating_value) {
      const v = ev.originating_value;
      out.push(el("h3", {}, "Originating value"), el("pre", { className: "json" }, v.value || JSON.stringify(v, null, 2)));
    }
    if (stack.length) out.push(el("h3", {}, "Stack"), el("ol", { className: "stack" }, stack));
    if (ev.relevant_input) {
      const i = ev.relevant_input;
      out.push(el("h3", {}, "Started as"), el("p", { className: "mono" }, [i.target, ...(i.argv || [])].join(" "), el("span", { className: "muted" }, ` in ${i.cwd}`)));
    }
    this.box.replaceChildren(...out);
  }
}

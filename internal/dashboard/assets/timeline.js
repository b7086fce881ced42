// timeline.js: one session's events, live from the stream. The list is virtualised (only the rows
// in view exist in the DOM, so 10,000 events scroll as smoothly as 10) and bounded (the page keeps
// the newest MAX_EVENTS; the service has them all until its own ring evicts them).

import { call, streamURL } from "./api.js";
import { Subscription } from "./stream.js";
import { el, clock, summary } from "./format.js";

const MAX_EVENTS = 20000; // events kept by the page per session; older ones are trimmed
const ROW = 24; // px, the height of .row in style.css
const DETAIL = 280; // px, the height of an expanded event (.expanded in style.css), scrolled within
const OVERSCAN = 12; // rows rendered above and below the visible ones
const KINDS = ["console", "exception", "throw", "stdout", "stderr", "exit", "pause", "resume",
  "breakpoint", "logpoint", "hook", "script", "context", "target", "progress"];

export class Timeline {
  constructor({ onEvent, onSummary, onState }) {
    this.onEvent = onEvent;
    this.onSummary = onSummary;
    this.onState = onState;
    this.scroll = document.getElementById("tl-scroll");
    this.space = document.getElementById("tl-space");
    this.detail = el("div", { id: "tl-expanded", className: "expanded", tabindex: "0", role: "region", hidden: true });
    this.space.append(this.detail);
    this.gapBox = document.getElementById("gap");
    this.count = document.getElementById("tl-count");
    this.kindSel = document.getElementById("f-kind");
    this.targetSel = document.getElementById("f-target");
    this.textIn = document.getElementById("f-text");
    for (const k of KINDS) this.kindSel.append(el("option", { value: k }, k));
    this.kindSel.onchange = this.textIn.oninput = this.targetSel.onchange = () => this.refilter();
    document.getElementById("filters").onsubmit = (e) => e.preventDefault();
    // Following the newest events is the reader's choice, made by scrolling: a layout change
    // (the gap banner appearing) must not end it.
    this.scroll.onscroll = () => {
      this.follow = this.atBottom();
      this.schedule();
    };
    new ResizeObserver(() => this.schedule()).observe(this.scroll);
    this.space.onclick = (e) => {
      const row = e.target.closest(".row");
      if (row) this.toggle(Number(row.dataset.seq));
    };
    this.pool = [];
    this.sub = null;
    this.clear();
  }

  clear() {
    this.events = [];
    this.filtered = [];
    this.lastSeq = 0;
    this.trimmed = 0;
    this.targets = new Set();
    this.selected = 0;
    this.follow = true;
    this.gaps = [];
    this.gapBox.hidden = true;
    this.gapBox.replaceChildren();
    this.targetSel.replaceChildren(el("option", { value: "" }, "all targets"));
    this.detail.hidden = true;
    this.schedule();
  }

  // watch follows session s (a summary) from its first retained event.
  watch(s) {
    if (this.sub) this.sub.close();
    this.startedAt = s.startedAt;
    this.clear();
    const id = s.id;
    this.sub = new Subscription({
      url: () => streamURL({ session: id, after: String(this.lastSeq) }),
      onMessage: (m) => this.message(m),
      onState: (st) => this.onState && this.onState(st),
      beforeReconnect: async () => {
        // A restarted service numbers its sessions anew: s1 may now be another program. Resume
        // only the very session this page was following.
        const list = await call("GET", "/api/trace/list");
        const now = list.sessions.find((x) => x.id === id);
        if (now && now.startedAt === this.startedAt) return true;
        this.addGap(`Gap: the events of ${id} after #${this.lastSeq} are lost: the service ` +
          `restarted and no longer has this session. The events below are what this page kept.`);
        if (this.onState) this.onState("ended");
        return false;
      },
    }).start();
  }

  stop() {
    if (this.sub) this.sub.close();
    this.sub = null;
  }

  message(m) {
    switch (m.type) {
      case "event":
        this.add(m.event);
        break;
      case "gap":
        this.addGap(`Gap: events #${m.gap.from}–#${m.gap.to} were evicted from the session's ring ` +
          `before this page read them; they cannot be replayed.`);
        break;
      case "session":
        if (this.onSummary) this.onSummary(m.summary);
        break;
    }
  }

  addGap(text) {
    this.gaps = [...this.gaps.slice(-2), text]; // the last three are shown
    this.gapBox.replaceChildren(...this.gaps.map((g) => el("p", {}, g)));
    this.gapBox.hidden = false;
    this.schedule(); // the banner took room from the list
  }

  add(ev) {
    if (ev.seq <= this.lastSeq) return; // a replayed duplicate
    this.lastSeq = ev.seq;
    ev.text = summary(ev);
    const t = ev.target || "t0";
    if (!this.targets.has(t)) {
      this.targets.add(t);
      this.targetSel.append(el("option", { value: t }, t));
    }
    this.events.push(ev);
    if (this.matches(ev)) this.filtered.push(ev);
    if (this.events.length > MAX_EVENTS) this.trim();
    if (this.onEvent) this.onEvent(ev);
    this.schedule();
  }

  // trim drops the oldest tenth at once, so trimming costs little per event.
  trim() {
    const n = this.events.length - MAX_EVENTS + MAX_EVENTS / 10;
    const cut = this.events[n - 1].seq;
    this.events.splice(0, n);
    this.trimmed += n;
    let i = 0;
    while (i < this.filtered.length && this.filtered[i].seq <= cut) i++;
    if (i) {
      this.filtered.splice(0, i);
      if (!this.follow) this.scroll.scrollTop = Math.max(0, this.scroll.scrollTop - i * ROW);
    }
  }

  matches(ev) {
    const k = this.kindSel.value;
    const t = this.targetSel.value;
    const q = this.textIn.value.trim().toLowerCase();
    if (k && ev.kind !== k) return false;
    if (t && (ev.target || "t0") !== t) return false;
    if (q && !ev.text.toLowerCase().includes(q) && !String(ev.seq).startsWith(q)) return false;
    return true;
  }

  refilter() {
    this.filtered = this.events.filter((ev) => this.matches(ev));
    // An expanded event stays in view across a filter change; else the newest are shown.
    this.reveal = this.selIndex() >= 0;
    this.follow = !this.reveal;
    this.schedule();
  }

  schedule() {
    if (this.frame) return;
    // Rendering once per frame: a replay of 10,000 events costs one layout, not 10,000.
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  atBottom() {
    const s = this.scroll;
    return s.scrollTop + s.clientHeight >= s.scrollHeight - 2 * ROW;
  }

  // selIndex is where the expanded event is in the filtered list, -1 when none is shown.
  selIndex() {
    if (!this.selected) return -1;
    let lo = 0;
    let hi = this.filtered.length - 1;
    while (lo <= hi) { // filtered is in seq order
      const mid = (lo + hi) >> 1;
      const seq = this.filtered[mid].seq;
      if (seq === this.selected) return mid;
      if (seq < this.selected) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  render() {
    const total = this.filtered.length;
    const sel = this.selIndex();
    const extra = sel >= 0 ? DETAIL : 0; // the expanded event's block, below its row
    const y = (i) => i * ROW + (sel >= 0 && i > sel ? extra : 0);
    const at = (px) => (sel < 0 || px < (sel + 1) * ROW ? Math.floor(px / ROW)
      : px < (sel + 1) * ROW + extra ? sel : Math.floor((px - extra) / ROW));
    this.space.style.height = total * ROW + extra + "px";
    if (this.reveal) {
      this.reveal = false;
      this.scroll.scrollTop = Math.max(0, (sel - 2) * ROW);
    } else if (this.follow) this.scroll.scrollTop = this.scroll.scrollHeight;
    const top = this.scroll.scrollTop;
    const first = Math.max(0, at(top) - OVERSCAN);
    const last = Math.min(total, at(top + this.scroll.clientHeight) + 1 + OVERSCAN);
    const need = Math.max(0, last - first);
    while (this.pool.length < need) {
      const row = el("button", { type: "button", className: "row", "aria-controls": "tl-expanded" },
        el("span", { className: "seq" }), el("span", { className: "time" }),
        el("span", { className: "kind" }), el("span", { className: "tgt" }), el("span", { className: "sum" }));
      this.pool.push(row);
      this.space.append(row);
    }
    while (this.pool.length > need) this.pool.pop().remove();
    for (let i = 0; i < need; i++) {
      const ev = this.filtered[first + i];
      const row = this.pool[i];
      row.style.transform = `translateY(${y(first + i)}px)`;
      row.setAttribute("aria-expanded", String(ev.seq === this.selected));
      if (row.dataset.seq === String(ev.seq)) continue;
      row.dataset.seq = ev.seq;
      row.className = `row k-${ev.kind}`;
      const [seq, time, kind, tgt, sum] = row.children;
      seq.textContent = "#" + ev.seq;
      time.textContent = clock(ev.time);
      kind.textContent = ev.kind;
      tgt.textContent = ev.target || "";
      sum.textContent = ev.text;
    }
    this.detail.hidden = sel < 0;
    if (sel >= 0) this.detail.style.transform = `translateY(${(sel + 1) * ROW}px)`;
    const trimmed = this.trimmed ? `, ${this.trimmed} older trimmed from this page` : "";
    const shown = total === this.events.length ? "" : `, ${total} shown`;
    this.count.textContent = `${this.events.length} events${shown}${trimmed}`;
  }

  // toggle expands the event seq in place (one at a time), or folds it when it is open.
  toggle(seq) {
    const ev = this.events.find((e) => e.seq === seq);
    this.selected = this.selected === seq || !ev ? 0 : seq;
    if (this.selected) {
      const { text, ...wire } = ev;
      this.detail.setAttribute("aria-label", `Event #${ev.seq}, ${ev.kind}`);
      this.detail.replaceChildren(el("p", { className: "dsum" }, text),
        el("pre", { className: "json" }, JSON.stringify(wire, null, 2)));
      this.follow = false; // reading an event: new ones must not scroll it away
    }
    this.render();
  }
}

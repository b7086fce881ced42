// sessions.js: the live list of retained sessions, the start form and stop buttons. Status
// changes come from the stream (session messages of every session); counts are refreshed from
// GET /api/trace/list while a session is live.

import { call, streamURL } from "./api.js";
import { Subscription } from "./stream.js";
import { el, duration } from "./format.js";

const REFRESH_MS = 2000; // list refresh while something is live: counts and durations move

export class Sessions {
  constructor({ onSelect, onState }) {
    this.onSelect = onSelect;
    this.onState = onState;
    this.body = document.querySelector("#sessions tbody");
    this.byId = new Map();
    this.selected = "";
    this.form = document.getElementById("start");
    this.err = document.getElementById("start-error");
    this.form.onsubmit = (e) => {
      e.preventDefault();
      this.start();
    };
    this.body.onclick = (e) => {
      const b = e.target.closest("button");
      if (!b) return;
      if (b.dataset.stop) this.stop(b.dataset.stop, b);
      else if (b.dataset.open) this.onSelect(this.byId.get(b.dataset.open));
    };
  }

  open() {
    this.sub = new Subscription({
      url: () => streamURL({ kinds: "exit" }), // every session's status changes, few events
      onState: this.onState,
      onMessage: (m) => {
        if (m.type === "session") this.put(m.summary);
        if (m.type === "live") this.refresh();
      },
      beforeReconnect: async () => {
        await this.refresh(); // throws while the service is away
        return true;
      },
    }).start();
    this.refresh();
    this.timer = setInterval(() => {
      if ([...this.byId.values()].some(live)) this.refresh().catch(() => {});
    }, REFRESH_MS);
  }

  close() {
    if (this.sub) this.sub.close();
    clearInterval(this.timer);
  }

  async refresh() {
    const list = await call("GET", "/api/trace/list");
    this.byId = new Map(list.sessions.map((s) => [s.id, s]));
    this.render();
    return list.sessions;
  }

  put(s) {
    this.byId.set(s.id, s);
    this.render();
    if (s.id === this.selected && this.onUpdate) this.onUpdate(s);
  }

  render() {
    const rows = [...this.byId.values()].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
    this.body.replaceChildren(...rows.map((s) => {
      const tr = el("tr", { className: s.id === this.selected ? "sel" : "", "data-id": s.id },
        el("td", {}, el("button", { type: "button", className: "link", "data-open": s.id,
          "aria-current": s.id === this.selected ? "true" : null,
          "aria-label": `Open ${s.id}${s.name ? " " + s.name : ""}` }, s.id), s.mode === "debug" ? el("span", { className: "tag" }, "debug") : ""),
        el("td", {}, el("span", { className: "st st-" + s.status }, s.status)),
        el("td", { className: "tgt", title: s.target }, short(s.target) + (s.args.length ? " " + s.args.join(" ") : "")),
        el("td", {}, s.pid || ""),
        el("td", {}, String(s.lastSeq)),
        el("td", {}, duration(s)),
        el("td", {}, live(s) ? el("button", { type: "button", "data-stop": s.id, "aria-label": `Stop ${s.id}` }, "Stop") : ""));
      return tr;
    }));
  }

  select(id) {
    this.selected = id;
    this.render();
  }

  async start() {
    const f = this.form.elements;
    const body = { target: f.target.value.trim(), mode: f.mode.value };
    const args = f.args.value.trim();
    if (args) body.args = args.split(/\s+/);
    const bps = f.breakpoints.value.split(",").map((b) => b.trim()).filter(Boolean);
    if (bps.length) body.breakpoints = bps;
    if (f.throws.checked) body.throws = {};
    this.err.textContent = "";
    const button = this.form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const r = await call("POST", "/api/trace/start", body);
      this.put(r.session);
      this.onSelect(r.session);
    } catch (e) {
      this.err.textContent = String(e);
    } finally {
      button.disabled = false;
    }
  }

  async stop(id, button) {
    button.disabled = true;
    try {
      const r = await call("POST", "/api/trace/stop", { id });
      this.put(r.session);
    } catch (e) {
      this.err.textContent = String(e);
      button.disabled = false;
    }
  }
}

export function live(s) {
  return s.status === "starting" || s.status === "running" || s.status === "paused";
}

function short(path) {
  const parts = path.split("/");
  return parts.slice(-2).join("/");
}

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
    this.rows = new Map(); // session id -> its row's elements
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
    this.close();
    this.selected = "";
    this.sub = new Subscription({
      url: () => streamURL({ kinds: "exit" }), // every session's status changes, few events
      onState: this.onState,
      onMessage: (m) => {
        if (m.type === "session") this.put(m.summary);
        if (m.type === "live") this.refresh().catch((e) => (this.err.textContent = String(e))); // the list as of now
      },
      beforeReconnect: async () => {
        await this.refresh(); // throws while the service is away
        return true;
      },
    }).start();
    this.refresh().catch((e) => (this.err.textContent = String(e))); // at once; "live" closes the window before it
    this.timer = setInterval(() => {
      if ([...this.byId.values()].some(live)) this.refresh().catch(() => {});
    }, REFRESH_MS);
  }

  close() {
    if (this.sub) this.sub.close();
    this.sub = null;
    clearInterval(this.timer);
  }

  async refresh() {
    const list = await call("GET", "/api/trace/list");
    this.byId = new Map(list.sessions.map((s) => [s.id, s]));
    this.render();
  }

  put(s) {
    this.byId.set(s.id, s);
    this.render();
  }

  // render updates the table in place: a row's elements live as long as its session, so a click
  // that lands during a refresh still reaches its button.
  render() {
    const list = [...this.byId.values()].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
    if (!list.length) {
      this.rows = new Map();
      this.body.replaceChildren(el("tr", { className: "empty" },
        el("td", { colSpan: 7, className: "muted" }, "No session yet: start one above.")));
      return;
    }
    const empty = this.body.querySelector("tr.empty");
    if (empty) empty.remove();
    const rows = new Map();
    list.forEach((s, i) => {
      const r = (this.rows.get(s.id)) || newRow(s.id);
      fill(r, s, s.id === this.selected);
      rows.set(s.id, r);
      if (this.body.children[i] !== r.tr) this.body.insertBefore(r.tr, this.body.children[i] || null);
    });
    for (const [id, r] of this.rows) if (!rows.has(id)) r.tr.remove();
    this.rows = rows;
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

function newRow(id) {
  const open = el("button", { type: "button", className: "link", "data-open": id }, id);
  const cells = [el("td", {}, open, el("span", { className: "tag" }, "debug")), el("td", {}, el("span", {})),
    el("td", { className: "tgt" }), el("td", {}), el("td", {}), el("td", {}), el("td", {})];
  const stop = el("button", { type: "button", "data-stop": id, "aria-label": `Stop ${id}` }, "Stop");
  return { tr: el("tr", { "data-id": id }, cells), open, cells, stop };
}

// fill writes a session's values into its row, touching only what changed.
function fill(r, s, selected) {
  const set = (node, text) => {
    if (node.textContent !== text) node.textContent = text;
  };
  r.tr.className = selected ? "sel" : "";
  if (selected) r.open.setAttribute("aria-current", "true");
  else r.open.removeAttribute("aria-current");
  r.open.setAttribute("aria-label", `Open ${s.id}${s.name ? " " + s.name : ""}`);
  r.cells[0].lastChild.hidden = s.mode !== "debug";
  const st = r.cells[1].firstChild;
  st.className = "st st-" + s.status;
  set(st, s.status);
  r.cells[2].title = s.target;
  set(r.cells[2], short(s.target) + (s.args.length ? " " + s.args.join(" ") : ""));
  set(r.cells[3], s.pid ? String(s.pid) : "");
  set(r.cells[4], String(s.lastSeq));
  r.cells[4].title = Object.entries(s.counts || {}).map(([k, n]) => `${k} ${n}`).join(", ") +
    (s.dropped ? `; ${s.dropped} evicted` : "");
  set(r.cells[5], duration(s));
  if (live(s) && !r.stop.isConnected) {
    r.stop.disabled = false;
    r.cells[6].append(r.stop);
  } else if (!live(s) && r.stop.isConnected) r.stop.remove();
}

export function live(s) {
  return s.status === "starting" || s.status === "running" || s.status === "paused";
}

function short(path) {
  const parts = path.split("/");
  return parts.slice(-2).join("/");
}

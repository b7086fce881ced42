// app.js: the dashboard's entry: sign-in, then the sessions list and the views of the session
// selected (timeline, evidence, debugger, profiles), kept up to date from the stream.

import { call, takeToken, token, whenUnauthorized } from "./api.js";
import { Sessions, live } from "./sessions.js";
import { Timeline } from "./timeline.js";
import { Evidence } from "./evidence.js";
import { Debugger } from "./debugger.js";
import { Profiles } from "./profiles.js";

const $ = (id) => document.getElementById(id);
const conn = $("conn");

let sessions, timeline, evidence, dbg, profiles;
let current = null; // the summary of the session shown
let evidenceTimer = 0;
let stateTimer = 0;

function signedOut(message) {
  if (sessions) sessions.close();
  if (timeline) timeline.stop();
  current = null;
  for (const k of Object.keys(states)) delete states[k];
  $("app").hidden = true;
  $("signout").hidden = true;
  $("signin-view").hidden = false;
  $("signin-error").textContent = message || "";
  conn.textContent = "signed out";
  conn.className = "conn";
  $("token").focus();
}

async function signIn() {
  try {
    await call("GET", "/api/trace/status");
  } catch (e) {
    if (e.status === 401) token.clear();
    signedOut(e.status === 401 ? "That token is not this service's." : String(e));
    return;
  }
  $("signin-view").hidden = true;
  $("app").hidden = false;
  $("signout").hidden = false;
  build();
  $("current").textContent = "No session selected";
  timeline.clear();
  evidence.clear();
  dbg.use(null);
  profiles.use(null);
  sessions.open();
}

// build makes the views once: they hold the page's elements and their handlers.
function build() {
  if (sessions) return;
  evidence = new Evidence();
  dbg = new Debugger();
  profiles = new Profiles();
  timeline = new Timeline({
    onEvent(ev) {
      if (ev.kind === "exception" || ev.kind === "exit" || ev.kind === "throw") later("evidence");
      // A pause is drawn from the state; a resume needs no call (asking the state of a program
      // that runs on to its end would race the end and be refused).
      if (ev.kind === "pause") later("state"); // the list hears the status itself
      if (ev.kind === "resume") dbg.running(); // the timeline follows the current session only
      if (ev.kind === "exit") dbg.ended(); // nothing left to ask the debugger
    },
    onSummary(s) {
      if (current && s.id === current.id) {
        const ended = s.status !== current.status && !live(s);
        current = s;
        if (ended) {
          profiles.use(s);
          later("evidence");
        }
      }
    },
    onState: (st) => {
      if (st === "ended") dbg.ended(); // the service restarted without it: nothing left to ask
      showConn("timeline", st);
    },
  });
  sessions = new Sessions({ onSelect: select, onState: (st) => showConn("sessions", st) });
}

const states = {};
function showConn(which, st) {
  states[which] = st;
  const all = Object.values(states);
  conn.textContent = all.includes("down") ? "reconnecting…" : all.includes("connecting") ? "connecting…" : "live";
  conn.className = "conn " + (all.includes("down") ? "down" : "up");
}

// later coalesces the reloads a burst of events asks for.
function later(what) {
  if (!current) return;
  const id = current.id;
  if (what === "evidence") {
    clearTimeout(evidenceTimer);
    evidenceTimer = setTimeout(() => current && current.id === id && evidence.load(id), 150);
  } else {
    clearTimeout(stateTimer);
    stateTimer = setTimeout(() => current && current.id === id && dbg.load(), 100);
  }
}

function select(s) {
  if (!s) return;
  current = s;
  sessions.select(s.id);
  $("current").textContent = `${s.id}${s.name ? " (" + s.name + ")" : ""}: ${s.target.split("/").pop()} — ${s.mode}`;
  timeline.watch(s);
  evidence.clear("Loading…");
  evidence.load(s.id);
  dbg.use(s);
  profiles.use(s);
  if (s.mode === "debug") showTab("debugger");
}

// Tabs, as the WAI-ARIA tabs pattern has them: arrows move between tabs, one tab stop.
const TABS = ["timeline", "evidence", "debugger", "profiles"];
function showTab(name) {
  for (const t of TABS) {
    const on = t === name;
    $("tab-" + t).setAttribute("aria-selected", String(on));
    $("tab-" + t).tabIndex = on ? 0 : -1;
    $("view-" + t).hidden = !on;
  }
}
for (const t of TABS) {
  $("tab-" + t).onclick = () => showTab(t);
  $("tab-" + t).onkeydown = (e) => {
    const i = TABS.indexOf(t);
    const j = e.key === "ArrowRight" ? (i + 1) % TABS.length : e.key === "ArrowLeft" ? (i + TABS.length - 1) % TABS.length : -1;
    if (j < 0) return;
    showTab(TABS[j]);
    $("tab-" + TABS[j]).focus();
  };
}

$("signin").onsubmit = (e) => {
  e.preventDefault();
  token.set($("token").value.trim());
  $("token").value = "";
  signIn();
};
$("signout").onclick = () => {
  token.clear();
  signedOut("");
};
whenUnauthorized(() => {
  token.clear();
  signedOut("The service refused the token (was it restarted with another one?). Sign in again.");
});

if (takeToken()) signIn();
else signedOut("");

// Drives traced's dashboard in a real headless chromium (tests/dashboard_test.go runs it against
// a real service). Each step prints one JSON line; "restart" asks the Go test to restart the
// service and waits for a line on stdin saying it is back. Exits non-zero on the first failure.
//
// Env: TRACED_URL (http://127.0.0.1:port), TRACED_TOKEN, CHROMIUM (the browser), SHOTS (a
// directory for screenshots), PROFILE_DIR (a fresh user-data-dir).
import { readFileSync, mkdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
const base = process.env.TRACED_URL;
const tok = process.env.TRACED_TOKEN;
const shots = process.env.SHOTS;
const T = 20000; // ms: bound of every wait for the page

let lastStep = "start";
const say = (o) => {
  if (o.step) lastStep = o.step;
  process.stdout.write(JSON.stringify(o) + "\n");
};
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const figures = {};

function check(cond, what) {
  if (!cond) throw new Error("check failed: " + what);
}

const ctx = await chromium.launchPersistentContext(process.env.PROFILE_DIR, {
  executablePath: process.env.CHROMIUM,
  headless: true,
  viewport: { width: 1400, height: 860 },
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
});
const problems = []; // console errors and CSP reports that no step expects
let expectSocketErrors = false;
let expectUnauthorized = false;
// While a paused session is stopped, a state the page asked for its last pause can reach the
// service after the stop: a 409 (finished) then is the page learning it, not a fault.
const finishedStates = new Set(); // the state paths of sessions a step stopped
let cspRefusals = 0; // the inline-script probe below must be refused, once
function watch(page) {
  page.on("console", (m) => {
    if (m.type() !== "error") return;
    const t = m.text();
    if (/violates the following Content Security Policy directive 'script-src 'self''/.test(t)) {
      cspRefusals++;
      return;
    }
    if (expectSocketErrors && /WebSocket|Failed to load resource|ERR_CONNECTION_REFUSED|Failed to fetch/.test(t)) return;
    if (/Failed to load resource: the server responded with a status of/.test(t)) return; // seen below, with its URL
    problems.push(t);
  });
  page.on("response", (r) => {
    const u = new URL(r.url());
    // While the service restarts, a reload the page scheduled before may reach the new service,
    // which no longer has the session: a 404 then is the page learning it, not a fault.
    const expected = (r.status() === 401 && expectUnauthorized) || (r.status() === 404 && expectSocketErrors) ||
      (r.status() === 409 && finishedStates.has(u.pathname));
    if (r.status() >= 400 && !expected) problems.push(`${r.status()} ${r.request().method()} ${u.pathname}${u.search} after step "${lastStep}"`);
  });
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
}
const axeSource = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

async function shot(page, name) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}/${name}.png` });
}

// axeCheck runs axe-core in the page (as DevTools evaluates it: the page's CSP, which forbids
// inline script, stays on) and fails on serious or critical violations.
async function axeCheck(page, view) {
  await page.evaluate(axeSource);
  const r = await page.evaluate(async () => {
    const res = await window.axe.run(document, { resultTypes: ["violations"] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  const bad = r.filter((v) => v.impact === "serious" || v.impact === "critical");
  say({ step: "axe " + view, violations: r.length, serious: bad.length, detail: r });
  check(bad.length === 0, `axe on ${view}: ${JSON.stringify(bad)}`);
}

async function tab(page, name) {
  await page.click(`#tab-${name}`);
  await page.waitForSelector(`#view-${name}:not([hidden])`, { timeout: T });
}

async function startSession(page, { target, args = "", mode = "trace", bps = "" }) {
  await page.fill("#start-target", target);
  await page.fill("#start-args", args);
  await page.selectOption("#start-mode", mode);
  await page.fill("#start-bps", bps);
  const before = await page.textContent("#current");
  await page.click("#start button[type=submit]");
  await page.waitForFunction((b) => document.getElementById("current").textContent !== b, before, { timeout: T });
  const err = await page.textContent("#start-error");
  check(!err, "start refused: " + err);
  return (await page.textContent("#current")).split(":")[0];
}

async function waitStatus(page, id, re) {
  await page.waitForFunction(([id, re]) => {
    const e = document.querySelector(`#sessions tr[data-id="${id}"] .st`);
    return e && new RegExp(re).test(e.textContent);
  }, [id, re.source], { timeout: T });
}

try {
  // The page itself: served with its CSP, / redirects to it.
  const page = ctx.pages()[0] || (await ctx.newPage());
  watch(page);
  const res = await page.goto(base + "/");
  check(page.url() === base + "/ui", "/ redirects to /ui, got " + page.url());
  const csp = res.headers()["content-security-policy"] || "";
  check(csp.includes("script-src 'self'") && csp.includes("connect-src 'self'"), "CSP header: " + csp);
  const stream = { events: 0, sessions: new Set() };
  page.on("websocket", (ws) => ws.on("framereceived", (f) => {
    try {
      const m = JSON.parse(f.payload);
      if (m.type === "event") {
        stream.events++;
        stream.sessions.add(m.session);
      }
    } catch {}
  }));

  // Sign in: a wrong token is refused, the right one opens the app.
  await page.waitForSelector("#signin-view:not([hidden])", { timeout: T });
  await shot(page, "signin");
  await axeCheck(page, "signin");
  expectUnauthorized = true;
  await page.fill("#token", "not-the-token");
  await page.click("#signin button[type=submit]");
  await page.waitForFunction(() => document.getElementById("signin-error").textContent.includes("not this service"), null, { timeout: T });
  expectUnauthorized = false;
  await page.fill("#token", tok);
  await page.click("#signin button[type=submit]");
  await page.waitForSelector("#app:not([hidden])", { timeout: T });
  await page.waitForFunction(() => document.getElementById("conn").textContent === "live", null, { timeout: T });
  const inline = await page.evaluate(() => {
    const s = document.createElement("script");
    s.textContent = "window.inlineRan = true";
    document.body.append(s);
    return window.inlineRan === true;
  });
  check(!inline, "an inline script ran: the CSP does not forbid it");
  say({ step: "signed in", csp });

  // The token taken once from the fragment, then removed from the address.
  const p2 = await ctx.newPage();
  watch(p2);
  await p2.goto(`${base}/ui#token=${encodeURIComponent(tok)}`);
  await p2.waitForSelector("#app:not([hidden])", { timeout: T });
  const after = await p2.evaluate(() => ({ href: location.href, stored: sessionStorage.getItem("traced.token") !== null }));
  check(after.href === base + "/ui" && after.stored, "the fragment's token is kept and removed: " + JSON.stringify(after));
  // Sign out forgets the token; signing in again rebuilds nothing twice.
  await p2.click("#signout");
  await p2.waitForSelector("#signin-view:not([hidden])", { timeout: T });
  check(await p2.evaluate(() => sessionStorage.getItem("traced.token") === null), "sign-out forgets the token");
  await p2.fill("#token", tok);
  await p2.click("#signin button[type=submit]");
  await p2.waitForFunction(() => document.getElementById("conn").textContent === "live", null, { timeout: T });
  const dup = await p2.evaluate(() => ({ kinds: document.querySelectorAll("#f-kind option").length,
    expanded: document.querySelectorAll("#tl-expanded").length }));
  check(dup.kinds === 16 && dup.expanded === 1, "views built once: " + JSON.stringify(dup));
  await p2.close();
  say({ step: "fragment sign-in", href: after.href });

  // A trace of the example that throws: events arrive on the stream, the evidence fills.
  const crash = await startSession(page, { target: "examples/crash.js" });
  await waitStatus(page, crash, /exited/);
  await page.waitForFunction(() => /^\d+ events/.test(document.getElementById("tl-count").textContent) &&
    parseInt(document.getElementById("tl-count").textContent) > 50, null, { timeout: T });
  check(stream.sessions.has(crash) && stream.events > 50, `events came on the stream: ${stream.events}`);
  await page.fill("#f-text", "TypeError");
  await page.waitForSelector("#tl-space .row.k-exception", { timeout: T });
  await page.click("#tl-space .row.k-exception");
  await page.waitForFunction(() => document.getElementById("tl-expanded").textContent.includes('"class": "TypeError"'), null, { timeout: T });
  check(await page.getAttribute("#tl-space .row.k-exception", "aria-expanded") === "true", "the exception row is expanded");
  await page.fill("#f-text", "");
  await page.selectOption("#f-kind", "console");
  await page.waitForFunction(() => /, 2 shown/.test(document.getElementById("tl-count").textContent), null, { timeout: T });
  await page.selectOption("#f-kind", "");
  say({ step: "trace timeline", session: crash, count: await page.textContent("#tl-count"), streamEvents: stream.events });
  await shot(page, "timeline");
  await axeCheck(page, "timeline");
  await tab(page, "evidence");
  await page.waitForSelector("#evidence .failure", { timeout: T });
  const evText = await page.textContent("#evidence");
  check(evText.includes("TypeError") && evText.includes("confidence: high") && evText.includes("correlation, not causation") &&
    evText.includes("crash.js:7"), "evidence: " + evText.slice(0, 300));
  say({ step: "evidence", session: crash });
  await shot(page, "evidence");
  await axeCheck(page, "evidence");

  // A test run with a failing test: the evidence lists it as the runner named it.
  const run = await startSession(page, { target: "tests/testdata/runners/npm/node_modules/mocha/bin/mocha.js",
    args: "tests/testdata/runners/npm/failing/mo.test.js" });
  await waitStatus(page, run, /exited/);
  await tab(page, "evidence");
  await page.waitForFunction(() => /Failing tests \(1\)/.test(document.getElementById("evidence").textContent), null, { timeout: T });
  const testsText = await page.textContent("#evidence");
  check(testsText.includes("cart › totals") && testsText.includes("expected 11, received 4") && testsText.includes("mo.test.js:9"),
    "failing tests: " + testsText.slice(0, 400));
  say({ step: "failing tests", session: run });
  await axeCheck(page, "failing tests");

  // A debug session with a breakpoint: paused at line 4, one step over moves to line 5, stop.
  const dbg = await startSession(page, { target: "examples/crash.js", mode: "debug", bps: "examples/crash.js:4" });
  await page.waitForSelector("#view-debugger:not([hidden])", { timeout: T });
  const curLine = () => page.evaluate(() => {
    const li = document.querySelector("#dbg-source li[aria-current=true]");
    return li ? li.value : 0;
  });
  await page.waitForFunction(() => document.querySelector("#dbg-source li[aria-current=true]"), null, { timeout: T });
  const l1 = await curLine();
  check(l1 === 4, "paused at line 4, got " + l1);
  await page.waitForSelector("#dbg-bps li .mono", { timeout: T });
  await shot(page, "debugger");
  await axeCheck(page, "debugger");
  await page.click("#dbg-over");
  await page.waitForFunction(() => {
    const li = document.querySelector("#dbg-source li[aria-current=true]");
    return li && li.value !== 4;
  }, null, { timeout: T });
  const l2 = await curLine();
  check(l2 === 5, "one step over moves to line 5, got " + l2);
  say({ step: "debug step", session: dbg, from: l1, to: l2, status: await page.textContent("#dbg-status") });
  finishedStates.add(`/api/debug/${dbg}/state`);
  await page.click(`#sessions button[data-stop="${dbg}"]`);
  await waitStatus(page, dbg, /stopped/);
  say({ step: "stopped", session: dbg });

  // Profiles of a busy, growing program: CPU top functions and a heap diff.
  const busy = await startSession(page, { target: "tests/testdata/busyleak.js", mode: "debug" });
  await tab(page, "profiles");
  await page.waitForSelector("#cpu-start:not([disabled])", { timeout: T });
  await page.click("#cpu-start");
  await page.waitForFunction(() => /profiler running/.test(document.getElementById("prof-note").textContent), null, { timeout: T });
  await page.click("#cpu-stop");
  await page.waitForSelector("#cpu .barrow", { timeout: T });
  await page.click("#heap-snap");
  await page.waitForFunction(() => /hs1/.test(document.getElementById("prof-note").textContent), null, { timeout: 60000 });
  await page.click("#heap-snap");
  await page.waitForFunction(() => /hs2/.test(document.getElementById("prof-note").textContent), null, { timeout: 60000 });
  await page.click("#heap-diff");
  await page.waitForSelector("#heap .barrow", { timeout: 60000 });
  const prof = { cpu: await page.textContent("#cpu"), heap: await page.textContent("#heap") };
  check(/busyleak\.js/.test(prof.cpu), "the CPU profile names the program's functions: " + prof.cpu.slice(0, 200));
  check(/Order/.test(prof.heap), "the heap diff names Order: " + prof.heap.slice(0, 200));
  check(/held by: .*kept\[i\]/.test(prof.heap), "the growing Order is shown with what holds it: " + prof.heap.slice(0, 400));
  check(/hot lines \S*busyleak\.js:\d+ \(\d+(\.\d+)?%\)/.test(prof.cpu), "the CPU profile shows hot lines: " + prof.cpu.slice(0, 300));
  // The one-call answers: what keeps it running (its interval, at its line), and why it is slow.
  await page.click("#why-alive");
  await page.waitForFunction(() => /still running because/.test(document.getElementById("why").textContent), null, { timeout: T });
  const alive = await page.textContent("#why");
  check(/interval 10 ms \(anonymous\) at \S*busyleak\.js:15/.test(alive), "the keep-alive panel names the interval at its line: " + alive.slice(0, 300));
  await page.click("#why-slow");
  await page.waitForFunction(() => /^t0 main busyleak\.js: [a-z-]+: /.test(document.getElementById("why").textContent), null, { timeout: T });
  check(!(await page.textContent("#prof-error")), "profile error: " + (await page.textContent("#prof-error")));
  say({ step: "profiles", session: busy, why: (await page.textContent("#why")).split("\n")[0] });
  await shot(page, "profiles");
  await axeCheck(page, "profiles");

  // 10,000+ events: the list stays bounded in the DOM; the frame times of a scroll across it are
  // reported (figures.scroll).
  await tab(page, "timeline");
  const chatty = await startSession(page, { target: "tests/testdata/chatty.js", args: "10000 20" });
  await waitStatus(page, chatty, /exited/);
  // Until the exit event, the last, is in: scrolling is measured without events arriving.
  await page.waitForSelector("#tl-space .row.k-exit", { timeout: 60000 });
  check(parseInt(await page.textContent("#tl-count")) >= 10000, "10,000 events: " + (await page.textContent("#tl-count")));
  const perf = await page.evaluate(async () => {
    const s = document.getElementById("tl-scroll");
    const long = [];
    const obs = new PerformanceObserver((l) => long.push(...l.getEntries().map((e) => e.duration)));
    obs.observe({ type: "longtask" });
    const frames = [];
    for (let i = 0; i < 60; i++) {
      s.scrollTop = (s.scrollHeight * i) / 60;
      const t0 = performance.now();
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      frames.push(performance.now() - t0);
    }
    obs.disconnect();
    frames.sort((a, b) => a - b);
    return { longTasks: long.length, longestTaskMs: Math.max(0, ...long), rows: document.querySelectorAll("#tl-space .row").length, count: document.getElementById("tl-count").textContent,
      medianMs: frames[30], worstMs: frames[59] };
  });
  figures.scroll = perf;
  check(perf.rows < 150, "rows in the DOM stay bounded: " + perf.rows);
  say({ step: "10k events", session: chatty, ...perf });
  await shot(page, "timeline-10k");
  // Opened again, its timeline starts past the events the ring (10,000) has evicted: a gap.
  await page.click(`#sessions button[data-open="${crash}"]`);
  await page.waitForFunction((id) => document.getElementById("current").textContent.startsWith(id + ":"), crash, { timeout: T });
  await page.click(`#sessions button[data-open="${chatty}"]`);
  await page.waitForSelector("#gap:not([hidden])", { timeout: T });
  const evicted = await page.textContent("#gap");
  check(/Gap: events #1–#\d+ were evicted/.test(evicted), "eviction gap banner: " + evicted);
  await page.waitForFunction(() => parseInt(document.getElementById("tl-count").textContent) >= 9000, null, { timeout: T });
  say({ step: "eviction gap", text: evicted, count: await page.textContent("#tl-count") });

  // A service restart: the timeline of a live session shows the gap, then follows a new run.
  await page.click(`#sessions button[data-open="${busy}"]`);
  await tab(page, "timeline");
  await page.waitForFunction(() => parseInt(document.getElementById("tl-count").textContent) > 0, null, { timeout: T });
  expectSocketErrors = true;
  say({ step: "restart" });
  const back = await lines.next();
  check(!back.done && back.value.trim() === "restarted", "the test restarted the service");
  await page.waitForSelector("#gap:not([hidden])", { timeout: T });
  const gap = await page.textContent("#gap");
  check(/service restarted/.test(gap), "gap banner: " + gap);
  await page.waitForFunction(() => document.getElementById("conn").textContent === "live", null, { timeout: T });
  say({ step: "gap banner", text: gap });
  await shot(page, "gap");
  await axeCheck(page, "gap");
  expectSocketErrors = false;
  const again = await startSession(page, { target: "examples/crash.js" });
  await waitStatus(page, again, /exited/);
  await page.waitForFunction(() => parseInt(document.getElementById("tl-count").textContent) > 50, null, { timeout: T });
  check(await page.isHidden("#gap"), "a new session's timeline starts without the old gap");
  say({ step: "recovered", session: again, count: await page.textContent("#tl-count") });

  check(problems.length === 0, "console errors: " + JSON.stringify(problems));
  check(cspRefusals === 1, `the CSP refused the inline-script probe once, and nothing else: ${cspRefusals}`);
  say({ done: true, figures });
  await ctx.close();
  process.exit(0);
} catch (e) {
  say({ failed: String(e && e.stack || e) });
  try {
    const p = ctx.pages()[0];
    if (p && shots) await p.screenshot({ path: `${shots}/failure.png` });
  } catch {}
  await ctx.close().catch(() => {});
  process.exit(1);
}

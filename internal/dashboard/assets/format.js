// format.js: how events, positions and values read on the page.

// el builds an element: el("td", {className: "x"}, "text", child...). Text is always set as text,
// never parsed as HTML: event payloads are the traced program's output.
export function el(tag, props, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k in e && typeof v !== "string") e[k] = v;
    else if (k === "className" || k === "textContent" || k === "id" || k === "type" || k === "value") e[k] = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

export function where(f) {
  if (!f) return "";
  const name = f.file || f.url || "<unknown>";
  return f.line ? `${name}:${f.line}` : name;
}

export function text(t) {
  if (!t) return "";
  return t.truncated ? `${t.value}… (${t.length} bytes)` : t.value;
}

export function clock(iso) {
  const d = new Date(iso);
  if (isNaN(d)) return "";
  return d.toISOString().slice(11, 23);
}

export function duration(s) {
  const start = Date.parse(s.startedAt);
  const end = s.endedAt ? Date.parse(s.endedAt) : Date.now();
  const ms = Math.max(0, end - start);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60000)}m${String(Math.floor((ms % 60000) / 1000)).padStart(2, "0")}s`;
}

export function bytes(n) {
  const a = Math.abs(n);
  const sign = n < 0 ? "-" : n > 0 ? "+" : "";
  if (a < 1024) return `${sign}${a} B`;
  if (a < 1 << 20) return `${sign}${(a / 1024).toFixed(1)} KiB`;
  return `${sign}${(a / (1 << 20)).toFixed(1)} MiB`;
}

// summary is an event's one-line description, as the timeline shows it and search reads it.
export function summary(ev) {
  switch (ev.kind) {
    case "console": {
      const c = ev.console || {};
      return `console.${c.level}: ${text(c.text)}  ${where(c.frame)}`.trimEnd();
    }
    case "exception": {
      const x = ev.exception || {};
      const what = x.class ? `${x.class}: ${text(x.message)}` : text(x.message) || x.text;
      return `${x.rejection ? "unhandled rejection" : "uncaught"} ${what}  ${where(x)}`.trimEnd();
    }
    case "throw": {
      const x = ev.throw || {};
      const what = x.class ? `${x.class}: ${text(x.message)}` : x.value || text(x.message);
      return `${x.caught ? "caught" : "uncaught"} throw ${what}  ${where(x.location)}`.trimEnd();
    }
    case "stdout":
    case "stderr":
      return text(ev.output && ev.output.text);
    case "script": {
      const s = ev.script || {};
      return `${s.failedToParse ? "failed to parse" : "parsed"} ${s.file || s.url || "(no url)"}`;
    }
    case "context":
      return `context ${(ev.context && ev.context.name) || ""}`;
    case "pause": {
      const p = ev.pause || {};
      const hit = p.hitBreakpoints && p.hitBreakpoints.length ? ` (${p.hitBreakpoints.join(", ")})` : "";
      return `paused: ${p.reason}${hit}  ${where(p.location)}`;
    }
    case "resume":
      return "resumed";
    case "exit": {
      const x = ev.exit || {};
      return x.signal ? `exited by ${x.signal}` : `exited with code ${x.code}`;
    }
    case "breakpoint":
      return `${ev.breakpoint.ref} bound at ${where(ev.breakpoint.location)}`;
    case "logpoint":
      return `${ev.logpoint.ref}: ${text(ev.logpoint.text)}`;
    case "hook":
      return `${ev.hook.name}(${text(ev.hook.payload)})`;
    case "target": {
      const t = ev.targetInfo || {};
      const why = t.reason ? ` (${t.reason})` : "";
      return `${t.kind || "target"} ${t.ref || ""} ${t.status || ""}${why} ${t.title || t.url || ""}`.trim();
    }
    case "progress":
      const p = ev.progress || {};
      return `${p.op} ${p.ref || ""}: ${p.finished ? "finished" : `${p.done}/${p.total}`}`;
  }
  return ev.kind;
}

// frameClass tells node's own frames (shown dimmed) from user code.
function frameClass(f) {
  return f && f.internal ? "internal" : "";
}

// frameItem is a stack frame as a list item: its function and place, node's own dimmed.
export function frameItem(f) {
  return el("li", { className: frameClass(f) }, `${f.function || "(anonymous)"}  ${where(f)}`);
}

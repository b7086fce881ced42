// api.js: the page's only way to the service: JSON calls with the bearer token, and the URL of
// the event stream (a browser cannot set headers on a WebSocket, so the token goes as ?token=).

const KEY = "traced.token";

// takeToken moves a token given in the URL fragment (#token=...) into this tab's session storage
// and removes it from the address bar and history, so it is neither bookmarked nor shared.
export function takeToken() {
  const params = new URLSearchParams(location.hash.slice(1));
  const t = params.get("token");
  if (t) {
    sessionStorage.setItem(KEY, t);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(KEY) || "";
}

export const token = {
  get: () => sessionStorage.getItem(KEY) || "",
  set: (t) => sessionStorage.setItem(KEY, t),
  clear: () => sessionStorage.removeItem(KEY),
};

// ApiError is a failed call, carrying the service's {code, message, hint}.
export class ApiError extends Error {
  constructor(status, code, message, hint) {
    super(message);
    this.status = status;
    this.code = code;
    this.hint = hint || "";
  }
  toString() {
    return this.hint ? `${this.message} (${this.hint})` : this.message;
  }
}

let onUnauthorized = () => {};
export function whenUnauthorized(f) {
  onUnauthorized = f;
}

// call sends one request; body, when given, is sent as JSON. It answers the decoded JSON body;
// a failure throws an ApiError (and a 401 signs the page out).
export async function call(method, path, body) {
  const headers = { Authorization: "Bearer " + token.get(), Accept: "application/json" };
  const init = { method, headers, cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, "unreachable", "the service does not answer", "is traced serve still running?");
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    if (res.status === 401) onUnauthorized();
    throw new ApiError(res.status, e.code || "http_" + res.status, e.message || res.statusText, e.hint);
  }
  return data;
}

// streamURL is the WebSocket URL of /api/stream with the given query and the token.
// debugPath is the path of a debug session's route op.
export function debugPath(id, op) {
  return `/api/debug/${encodeURIComponent(id)}/${op}`;
}

export function streamURL(query) {
  const q = new URLSearchParams(query);
  q.set("token", token.get());
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/api/stream?${q}`;
}

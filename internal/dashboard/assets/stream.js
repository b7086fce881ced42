// stream.js: one subscription to /api/stream that reconnects by itself. The owner supplies the
// query of each connection (so a session's timeline resumes with after=<last seq it holds>) and a
// check run before each reconnection, which can end the subscription (the session is gone).

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 3000;

export class Subscription {
  // query() -> {session, kinds, after}; onMessage(msg); onState("connecting" | "live" | "down");
  // beforeReconnect() -> Promise<boolean>: false ends the subscription.
  constructor({ url, onMessage, onState, beforeReconnect }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.beforeReconnect = beforeReconnect || (async () => true);
    this.ws = null;
    this.closed = false;
    this.retry = FIRST_RETRY_MS;
    this.timer = 0;
  }

  start() {
    this.connect();
    return this;
  }

  connect() {
    if (this.closed) return;
    this.onState("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onmessage = (m) => {
      let msg;
      try {
        msg = JSON.parse(m.data);
      } catch {
        return;
      }
      if (msg.type === "live") {
        this.retry = FIRST_RETRY_MS;
        this.onState("live");
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.ws = null;
      this.later();
    };
  }

  // later says the stream is down and tries again after the current backoff, doubling it.
  later() {
    this.onState("down");
    this.timer = setTimeout(() => this.reconnect(), this.retry);
    this.retry = Math.min(this.retry * 2, MAX_RETRY_MS);
  }

  async reconnect() {
    if (this.closed) return;
    let again;
    try {
      again = await this.beforeReconnect();
    } catch {
      if (!this.closed) this.later(); // the service is still away; try again unless closed meanwhile
      return;
    }
    if (!again) {
      this.close();
      return;
    }
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close(1000);
    }
  }
}

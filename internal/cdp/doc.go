// Package cdp is a Chrome DevTools Protocol client: id-correlated calls and an ordered event feed
// over one connection (Conn), a WebSocket of its own (Client) or a worker thread's session
// tunnelled through its parent's (Worker). It knows nothing of sessions, node processes or HTTP.
package cdp

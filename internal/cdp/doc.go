// Package cdp is a Chrome DevTools Protocol client over one WebSocket: id-correlated calls and an
// ordered event feed. It knows nothing of sessions, node processes or HTTP.
package cdp

// Package engine runs node programs under the V8 inspector and keeps what they do as capped
// per-session event timelines: the launcher, the session lifecycle and the event store.
package engine

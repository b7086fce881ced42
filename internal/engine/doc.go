// Package engine runs node programs under the V8 inspector and keeps what they do as capped
// per-session event timelines: the session lifecycle, the debugger and the event store.
//
// # Types and who owns what
//
// The Manager holds the sessions. A Session (session.go) is one program the user runs or
// attached to: its life cycle, its node (a launch.Child) and process tree, event store, the
// settings the user asked for (breakpoints and logpoints as asked, exception mode, blackbox
// patterns, async depth, hooks, throw options) and one registry of its targets (registry.go). A
// Target (target.go) is one inspector connection of it: the main thread t0 (Session.main), a
// worker thread or a child process. It owns its connection (a cdp.Conn: a WebSocket, or a
// worker's session tunnelled through its parent's), scripts, contexts, sources, source maps in
// use, the pause, refs, heap and profiles, and its bindings of the session's breakpoints
// (bindings.go): the V8 id and resolved locations each breakpoint has in it, as delve's
// physical breakpoints point at their logical one. Binding a breakpoint everywhere is the
// session looping over its targets (targetsetup.go); a new target adopts the session's settings
// in adoptDebugger.
//
// # Sub-packages
//
// They have one job each and never import the engine. launch spawns node (directly or under the
// shim), reads its output lines and reports its end; what those lines mean (the inspector's URL
// and chatter, TAP comments: inspectorlines.go), the engine's errors and its ExitInfo
// (spawning.go) stay here. proctree finds, kills and reaps a session's process tree.
//
// # Views
//
// A Target's and a Session's methods are grouped by job into views (targetparts.go,
// sessionparts.go): Heap, Profiler, SourceMapping, Breakpoints, Inspector, Control and the
// dispatcher of a target; Settings, Tree and Timeline of a session. A view is a value holding
// its target or session and nothing else: it shares their state and their lock.
//
// # Locks
//
// Session.mu guards the session's fields and, for now, every target's (Target.s.mu). The
// order, for any lock taken under it: Session.mu, then a target's own lock, then the store's;
// never Session.mu while holding a target's. The store (store.go) and the source maps
// (sourcemaps.go) have locks of their own, taken last.
//
// # A request
//
//	routes --Manager.Get--> *Session --On(ref)--> *Target --liveClient--> boundedCaller
//	    --> cdp.Conn.Call --> V8 --> reply --> the connection's reader --> the waiting caller
//
// A setting of the session's (a breakpoint, the exception mode) is made through the target the
// request named and then spread to every other target the registry lists.
//
// # An event
//
//	V8 --> the connection's reader --> its queue --> its goroutine --> Target.dispatcher().onEvent
//	    --> Target.record --> store.append --> Publisher.PublishEvent (the live stream)
//
// A worker's messages come inside its parent's NodeWorker.receivedMessageFromWorker: the
// parent's dispatcher hands them to the worker's cdp.Worker, whose own dispatcher calls the
// worker target's onEvent, so a worker's event handler may call the worker and wait.
package engine

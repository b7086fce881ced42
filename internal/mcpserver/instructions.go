package mcpserver

// instructions are the server's MCP instructions: the workflow, in a few lines an agent reads
// once. Kept short: every client pays for them in each conversation.
const instructions = `traced runs Node.js programs under the V8 inspector. A debug session is traced's, named by id or name, and outlives this connection; tools take "session" (default: the newest one, live or ended).

Workflow: start -> wait -> state -> step/eval -> evidence.
- start {"target":"app.js","breakpoints":["app.js:12:i > 3"]} runs it paused at the first hit and answers the state; mode "trace" only observes.
- wait blocks (at most 60s) for the next event of some kinds after a cursor ("after"); a timeout answers the window, the cursor to wait again from and any gap. Never poll state in a loop.
- state shows where it is: source, locals as refs (v1, o2), stack. eval and inspect read values; refs last until the program moves on.
- step moves (over/into/out/continue/to/pause) and answers the next pause's state.
- events pages what happened; evidence gives a failure and the events before it. Evidence is correlation, not causation: confirm a cause by stepping or by changing the code (patch) and running again.
Errors come as results with a hint naming the next tool. Debug tools refuse trace sessions: start with mode "debug". Profiles and heap snapshots are named by ref and URL; save writes one to a file, never inline.`

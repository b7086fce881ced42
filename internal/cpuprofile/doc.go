// Package cpuprofile answers why a node program is slow, and why it will not exit, from what
// V8 and node report about it: a pure analysis of CPU profiles, and the JavaScript snippets
// (with parsers of their answers) that ask a live process about its event loop. It keeps no
// session and does no I/O.
//
// # Why it is slow
//
// Per target (main thread, worker, child), the engine samples with the CPU profiler
// (Profiler.setSamplingInterval 1000 µs, Profiler.start ... Profiler.stop) and, over the same
// window, the event loop with LoopMonitorStartJS and LoopMonitorReadJS through
// Runtime.evaluate (returnByValue). Then:
//
//	p, err := cpuprofile.Parse(stopResult.Profile)          // Profiler.stop's "profile"
//	loop, err := cpuprofile.ParseLoopStats([]byte(readValue)) // optional
//	ds := cpuprofile.DiagnoseAll([]cpuprofile.TargetProfile{
//		{Name: "main", Profile: p, Loop: &loop, Options: cpuprofile.Options{
//			Ranges:    target.functionRanges, // func(scriptID, url) []FunctionRange
//			SourceMap: cpuprofile.ScriptMaps(target.sourceMap), // func(scriptID, url) *sourcemap.Map
//		}},
//		// ... every other target of the session
//	})
//	text := cpuprofile.RenderDiagnoses(ds, 0) // ≤ MaxTextBytes; each target's first line names its category
//
// Summarize and RenderSummary give the per-function table alone (self and total time, hot
// lines, inlining, deopt reasons, original positions).
//
// V8 puts the ticks of a function it inlined on its caller's node, but its position ticks
// keep the inlined code's own lines. Given each script's function ranges (Options.Ranges, from
// Debugger.getScriptSource and jsscan.FunctionRanges, as the engine does), a
// line's ticks go to the innermost function whose range holds the line, which is then named
// at its own line with InlinedInto set. Position ticks carry lines only, so a line holding
// two functions goes to the inner one; lines of code inlined from another script cannot be
// told apart and stay with the node. Node 20 to 26 put no deoptReason in their profiles
// (checked with --cpu-prof on a deoptimising fixture); Function.Deopt holds it where V8 does.
// From node 22, code V8 optimised before Profiler.start is missing from the profiler's code
// map and its samples land on the nearest known caller: the engine switches precise coverage
// on and off after the start, which deoptimises everything, so the hot code is compiled (and
// logged) anew.
//
// # Why it will not exit
//
// AliveJS, TimeoutPrototypeJS with TimersDescribeJS and TimerCallbacksJS, and
// WorkerPrototypeJS with WorkersDescribeJS, evaluated in each target as alivejs.go describes,
// give the handles, requests, timers and workers that keep its event loop alive; ParseAlive,
// ParseHandles, Alive.Add and RenderAlive turn them into "still running because: ...".
//
// # Positions
//
// Inputs and outputs are 1-based (sourcemap.Pos), except where V8's own JSON is read: call
// frames are 0-based (converted with sourcemap.FromCDP), position ticks 1-based.
package cpuprofile

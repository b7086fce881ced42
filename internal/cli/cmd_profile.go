package cli

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"traced/api"
	"traced/internal/apiclient"
)

func profileCommands() []*command {
	tag := flagDef{name: "tag", kind: kindString, help: "a name for the snapshot (usable as its ref)"}
	snapWait := flagDef{name: "wait", kind: kindString, help: "answer with a job past this long (default 30s)"}
	cov := []flagDef{{name: "file", kind: kindString, help: "one file only"}, {name: "uncovered", kind: kindBool, help: "uncovered ranges only"}}
	return []*command{
		{name: "cpu start", usage: "[--interval US]", routes: []string{dbg("POST", "cpu/start")}, help: "start the CPU profiler",
			group: gProfile, core: true, flags: []flagDef{{name: "interval", kind: kindString, help: "sampling interval in microseconds"}},
			run: func(c *call) error {
				return c.postNum("/api/debug/{session}/cpu/start", "interval", func(n int) any { return api.CPUStartRequest{IntervalUs: n} })
			}},
		{name: "cpu stop", usage: "[--top N]", routes: []string{dbg("POST", "cpu/stop")},
			help: "stop it; the hottest functions and the profile's ref", group: gProfile, core: true, flags: []flagDef{topFlag},
			run: func(c *call) error {
				return c.postNum("/api/debug/{session}/cpu/stop", "top", func(n int) any { return api.CPUStopRequest{Top: n} })
			}},
		{name: "slow", usage: "[--window 2s] [--until-exit]", routes: []string{dbg("POST", "slow")},
			help: "why it is slow: every target sampled for a window, a category each with its evidence", group: gProfile, core: true,
			flags: []flagDef{{name: "window", kind: kindString, help: "how long to sample (100ms to 60s, default 2s)"},
				{name: "until-exit", kind: kindBool, help: "sample until the program ends (--window at the latest, default 60s)"}},
			run: func(c *call) error {
				ms, _, err := c.ms("window")
				if err != nil {
					return err
				}
				return c.post("/api/debug/{session}/slow", api.SlowRequest{WindowMs: int(ms), UntilExit: c.flag("until-exit")})
			}},
		{name: "alive", routes: []string{dbg("GET", "alive")},
			help: "why it will not exit: what keeps each target's event loop alive", group: gProfile, core: true,
			run: func(c *call) error { return c.get("/api/debug/{session}/alive", nil) }},
		{name: "cpu save", usage: "REF [-o FILE]", routes: []string{dbg("GET", "cpu/profiles/{ref}")},
			help: "the .cpuprofile (for DevTools)", group: gProfile, minArgs: 1, maxArgs: 1, flags: []flagDef{outFlag},
			run: func(c *call) error {
				return c.save("/api/debug/{session}/cpu/profiles/" + url.PathEscape(refArg(c.pos[0])))
			}},
		{name: "coverage start", usage: "[--detailed]", routes: []string{dbg("POST", "coverage/start")},
			help: "start precise coverage", group: gProfile, flags: []flagDef{{name: "detailed", kind: kindBool, help: "block granularity"}},
			run: func(c *call) error {
				return c.post("/api/debug/{session}/coverage/start", api.CoverageStartRequest{Detailed: c.flag("detailed")})
			}},
		{name: "coverage take", usage: "[--file F] [--uncovered]", routes: []string{dbg("POST", "coverage/take")},
			help: "coverage so far, collection goes on", group: gProfile, flags: cov,
			run: func(c *call) error {
				return c.post("/api/debug/{session}/coverage/take", api.CoverageRequest{File: c.str("file"), Uncovered: c.flag("uncovered")})
			}},
		{name: "coverage stop", usage: "[--file F] [--uncovered]", routes: []string{dbg("POST", "coverage/stop")},
			help: "stop coverage and report", group: gProfile, flags: cov,
			run: func(c *call) error {
				return c.post("/api/debug/{session}/coverage/stop", api.CoverageRequest{File: c.str("file"), Uncovered: c.flag("uncovered")})
			}},
		{name: "heap usage", routes: []string{dbg("GET", "heap/usage")}, help: "heap used and total", group: gProfile, core: true,
			run: func(c *call) error { return c.get("/api/debug/{session}/heap/usage", nil) }},
		{name: "heap gc", routes: []string{dbg("POST", "heap/gc")}, help: "collect garbage now", group: gProfile,
			run: func(c *call) error { return c.post("/api/debug/{session}/heap/gc", nil) }},
		{name: "heap snapshot", usage: "[--tag T]", routes: []string{dbg("POST", "heap/snapshot")},
			help: "snapshot the heap (an hs ref), summarised by constructor", group: gProfile, core: true,
			flags: []flagDef{tag, topFlag, snapWait}, run: func(c *call) error { return c.snapshot("/api/debug/{session}/heap/snapshot") }},
		{name: "heap diff", usage: "HS1 HS2 [--top N]", routes: []string{dbg("POST", "heap/diff")},
			help: "what grew between two snapshots", group: gProfile, core: true, minArgs: 2, maxArgs: 2,
			flags: []flagDef{topFlag, snapWait},
			run: func(c *call) error {
				return c.postHeapJob("/api/debug/{session}/heap/diff", func(top int, wait *int64) any {
					return api.HeapDiffRequest{From: refArg(c.pos[0]), To: refArg(c.pos[1]), Top: top, WaitMs: wait}
				})
			}},
		{name: "heap save", usage: "REF [-o FILE]", routes: []string{dbg("GET", "heap/snapshots/{ref}")},
			help: "the .heapsnapshot (for DevTools)", group: gProfile, minArgs: 1, maxArgs: 1, flags: []flagDef{outFlag},
			run: func(c *call) error {
				return c.save("/api/debug/{session}/heap/snapshots/" + url.PathEscape(refArg(c.pos[0])))
			}},
		{name: "heap rm", usage: "REF", routes: []string{dbg("DELETE", "heap/snapshots/{ref}")},
			help: "delete a snapshot's file", group: gProfile, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				return c.del("/api/debug/{session}/heap/snapshots/" + url.PathEscape(refArg(c.pos[0])))
			}},
		{name: "heap retainers", usage: "[HS] [--class C | --id N | --ref v1] [--top N]", routes: []string{dbg("POST", "heap/retainers")},
			help: "what holds it: an object's, a live value's or a class's retainer paths; bare, the largest holders", group: gProfile, core: true, maxArgs: 1,
			flags: []flagDef{{name: "class", kind: kindString, help: "a constructor name (module-scoped too)"}, {name: "id", kind: kindString, help: "a snapshot node id (@123)"},
				{name: "ref", kind: kindString, help: "a live value or object ref (v1, o2); without HS, a snapshot is taken now"}, topFlag},
			run: func(c *call) error {
				top, err := c.optNum("top")
				if err != nil {
					return err
				}
				var id int
				if s := strings.TrimPrefix(c.str("id"), "@"); s != "" {
					if id, err = intArg("--id", s); err != nil {
						return err
					}
				}
				body := api.HeapRetainersRequest{Class: c.str("class"), ID: int64(id), Ref: strings.TrimPrefix(c.str("ref"), "@"), Top: top}
				if len(c.pos) > 0 {
					body.Snapshot = refArg(c.pos[0])
				} else if body.Ref == "" {
					return &cliError{code: ExitUsage, msg: "heap retainers needs a snapshot (HS) or --ref", hint: "traced heap snapshot takes one (hs1); traced heap retainers --ref v1 takes one for you"}
				}
				return c.post("/api/debug/{session}/heap/retainers", body)
			}},
		{name: "leak begin", routes: []string{dbg("POST", "heap/leak/begin")},
			help: "open a leak window: a watermark snapshot, allocation sampling on; then drive load, then leak end", group: gProfile, core: true,
			run: func(c *call) error { return c.post("/api/debug/{session}/heap/leak/begin", nil) }},
		{name: "leak end", usage: "[--top N]", routes: []string{dbg("POST", "heap/leak/end")},
			help: "close it: objects born in the window and still held, clustered, with their paths", group: gProfile, core: true, flags: []flagDef{topFlag},
			run: func(c *call) error {
				return c.postNum("/api/debug/{session}/heap/leak/end", "top", func(n int) any { return api.LeakEndRequest{Top: n} })
			}},
		{name: "leak run", usage: "EXPR [--iterations N] [--top N]", routes: []string{dbg("POST", "heap/leak")},
			help: "a leak window in one call: begin, run EXPR N times in the program, end", group: gProfile, minArgs: 1, maxArgs: 1,
			flags: []flagDef{{name: "iterations", kind: kindString, help: "times to run EXPR (default 1)"}, topFlag},
			run: func(c *call) error {
				top, err := c.optNum("top")
				if err != nil {
					return err
				}
				n, err := c.optNum("iterations")
				if err != nil {
					return err
				}
				return c.post("/api/debug/{session}/heap/leak", api.LeakEndRequest{Expression: c.pos[0], Iterations: n, Top: top})
			}},
		{name: "heap sample start", usage: "[--interval BYTES]", routes: []string{dbg("POST", "heap/sampling/start")},
			help: "start the sampling heap profiler", group: gProfile,
			flags: []flagDef{{name: "interval", kind: kindString, help: "mean bytes between samples"}},
			run: func(c *call) error {
				return c.postNum("/api/debug/{session}/heap/sampling/start", "interval", func(n int) any { return api.SamplingStartRequest{IntervalBytes: n} })
			}},
		{name: "heap sample stop", usage: "[--top N]", routes: []string{dbg("POST", "heap/sampling/stop")},
			help: "stop it; the top allocation sites", group: gProfile, flags: []flagDef{topFlag},
			run: func(c *call) error {
				return c.postNum("/api/debug/{session}/heap/sampling/stop", "top", func(n int) any { return api.SamplingStopRequest{Top: n} })
			}},
		{name: "heap track start", routes: []string{dbg("POST", "heap/tracking/start")},
			help: "start allocation tracking", group: gProfile,
			run: func(c *call) error { return c.post("/api/debug/{session}/heap/tracking/start", nil) }},
		{name: "heap track stop", usage: "[--tag T]", routes: []string{dbg("POST", "heap/tracking/stop")},
			help: "stop it, ending in a snapshot", group: gProfile, flags: []flagDef{tag, topFlag, snapWait},
			run: func(c *call) error { return c.snapshot("/api/debug/{session}/heap/tracking/stop") }},
		{name: "heap inspect", usage: "NODE-ID", routes: []string{dbg("POST", "heap/inspect")},
			help: "a snapshot's object as an o ref", group: gProfile, minArgs: 1, maxArgs: 1,
			run: func(c *call) error {
				n, err := intArg("node id", c.pos[0])
				if err != nil {
					return err
				}
				return c.post("/api/debug/{session}/heap/inspect", api.HeapInspectRequest{NodeID: int64(n)})
			}},
		{name: "job", usage: "JOB [--wait D]", routes: []string{dbg("GET", "jobs/{job}")},
			help: "a long heap job's progress or result", group: gProfile, minArgs: 1, maxArgs: 1,
			flags: []flagDef{{name: "wait", kind: kindString, help: "wait this long for it to end"}},
			run: func(c *call) error {
				q := url.Values{}
				wait, err := c.waitFlag(apiclient.ClampJobWait)
				if err != nil {
					return err
				}
				if wait != nil {
					q.Set("waitMs", strconv.FormatInt(*wait, 10))
				}
				return c.get("/api/debug/{session}/jobs/"+url.PathEscape(c.pos[0]), q)
			}},
	}
}

// optNum reads an optional numeric flag; absent is 0, which the requests leave out.
func (c *call) optNum(name string) (int, error) {
	n, _, err := c.num(name)
	return n, err
}

// postNum posts body(n), n the value of the numeric flag (0 when absent, which the body leaves
// out).
func (c *call) postNum(path, flag string, body func(n int) any) error {
	n, err := c.optNum(flag)
	if err != nil {
		return err
	}
	return c.post(path, body(n))
}

// waitFlag reads --wait as a request's waitMs, bounded by clamp; nil when absent (the route's
// default). An explicit 0 asks to answer at once.
func (c *call) waitFlag(clamp func(int64) int64) (*int64, error) {
	ms, ok, err := c.ms("wait")
	if err != nil || !ok {
		return nil, err
	}
	v := clamp(ms)
	return &v, nil
}

// postHeapJob posts a heap job's request (a snapshot, a diff), made with --top and --wait.
func (c *call) postHeapJob(path string, body func(top int, wait *int64) any) error {
	top, err := c.optNum("top")
	if err != nil {
		return err
	}
	wait, err := c.waitFlag(apiclient.ClampJobWait)
	if err != nil {
		return err
	}
	return c.post(path, body(top, wait))
}

func (c *call) snapshot(path string) error {
	return c.postHeapJob(path, func(top int, wait *int64) any {
		return api.SnapshotRequest{Tag: c.str("tag"), Top: top, WaitMs: wait}
	})
}

// save writes a profile or snapshot file to --out, or to stdout.
func (c *call) save(path string) error {
	json0 := c.json
	c.json = true // the file itself, never a text rendering
	r, err := c.do("GET", path, nil, nil)
	c.json = json0
	if err != nil {
		return err
	}
	out := c.str("out")
	if out == "" {
		c.env.Stdout.Write(r.Body)
		return nil
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(c.env.Cwd, out)
	}
	if err := os.WriteFile(out, r.Body, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	fmt.Fprintf(c.env.Stdout, "%s  %d bytes\n", out, len(r.Body))
	return nil
}

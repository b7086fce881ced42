package cli

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
)

func profileCommands() []*command {
	tag := flagDef{name: "tag", kind: kindString, help: "a name for the snapshot (usable as its ref)"}
	snapWait := flagDef{name: "wait", kind: kindString, help: "answer with a job past this long (default 30s)"}
	cov := []flagDef{{name: "file", kind: kindString, help: "one file only"}, {name: "uncovered", kind: kindBool, help: "uncovered ranges only"}}
	return []*command{
		{name: "cpu start", usage: "[--interval US]", routes: []string{dbg("POST", "cpu/start")}, help: "start the CPU profiler",
			group: gProfile, core: true, flags: []flagDef{{name: "interval", kind: kindString, help: "sampling interval in microseconds"}},
			run: func(c *call) error {
				return c.postNums("/api/debug/{session}/cpu/start", map[string]string{"intervalUs": "interval"})
			}},
		{name: "cpu stop", usage: "[--top N]", routes: []string{dbg("POST", "cpu/stop")},
			help: "stop it; the hottest functions and the profile's ref", group: gProfile, core: true, flags: []flagDef{topFlag},
			run: func(c *call) error {
				return c.postNums("/api/debug/{session}/cpu/stop", map[string]string{"top": "top"})
			}},
		{name: "cpu save", usage: "REF [-o FILE]", routes: []string{dbg("GET", "cpu/profiles/{ref}")},
			help: "the .cpuprofile (for DevTools)", group: gProfile, minArgs: 1, maxArgs: 1, flags: []flagDef{outFlag},
			run: func(c *call) error {
				return c.save("/api/debug/{session}/cpu/profiles/" + url.PathEscape(refArg(c.pos[0])))
			}},
		{name: "coverage start", usage: "[--detailed]", routes: []string{dbg("POST", "coverage/start")},
			help: "start precise coverage", group: gProfile, flags: []flagDef{{name: "detailed", kind: kindBool, help: "block granularity"}},
			run: func(c *call) error {
				return c.post("/api/debug/{session}/coverage/start", map[string]any{"detailed": c.flag("detailed")})
			}},
		{name: "coverage take", usage: "[--file F] [--uncovered]", routes: []string{dbg("POST", "coverage/take")},
			help: "coverage so far, collection goes on", group: gProfile, flags: cov,
			run: func(c *call) error { return c.post("/api/debug/{session}/coverage/take", c.coverageBody()) }},
		{name: "coverage stop", usage: "[--file F] [--uncovered]", routes: []string{dbg("POST", "coverage/stop")},
			help: "stop coverage and report", group: gProfile, flags: cov,
			run: func(c *call) error { return c.post("/api/debug/{session}/coverage/stop", c.coverageBody()) }},
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
				body, err := c.nums(map[string]string{"top": "top"})
				if err != nil {
					return err
				}
				body["from"], body["to"] = refArg(c.pos[0]), refArg(c.pos[1])
				return c.post("/api/debug/{session}/heap/diff", c.snapWait(body))
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
		{name: "heap sample start", usage: "[--interval BYTES]", routes: []string{dbg("POST", "heap/sampling/start")},
			help: "start the sampling heap profiler", group: gProfile,
			flags: []flagDef{{name: "interval", kind: kindString, help: "mean bytes between samples"}},
			run: func(c *call) error {
				return c.postNums("/api/debug/{session}/heap/sampling/start", map[string]string{"intervalBytes": "interval"})
			}},
		{name: "heap sample stop", usage: "[--top N]", routes: []string{dbg("POST", "heap/sampling/stop")},
			help: "stop it; the top allocation sites", group: gProfile, flags: []flagDef{topFlag},
			run: func(c *call) error {
				return c.postNums("/api/debug/{session}/heap/sampling/stop", map[string]string{"top": "top"})
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
				return c.post("/api/debug/{session}/heap/inspect", map[string]any{"nodeId": n})
			}},
		{name: "job", usage: "JOB [--wait D]", routes: []string{dbg("GET", "jobs/{job}")},
			help: "a long heap job's progress or result", group: gProfile, minArgs: 1, maxArgs: 1,
			flags: []flagDef{{name: "wait", kind: kindString, help: "wait this long for it to end"}},
			run: func(c *call) error {
				q := url.Values{}
				ms, ok, err := c.ms("wait")
				if err != nil {
					return err
				}
				if ok {
					q.Set("waitMs", strconv.FormatInt(min(ms, 600000), 10))
				}
				return c.get("/api/debug/{session}/jobs/"+url.PathEscape(c.pos[0]), q)
			}},
	}
}

// nums builds a body from numeric flags: field -> flag.
func (c *call) nums(m map[string]string) (map[string]any, error) {
	body := map[string]any{}
	for field, flag := range m {
		n, ok, err := c.num(flag)
		if err != nil {
			return nil, err
		}
		if ok {
			body[field] = n
		}
	}
	return body, nil
}

func (c *call) postNums(path string, m map[string]string) error {
	body, err := c.nums(m)
	if err != nil {
		return err
	}
	return c.post(path, body)
}

func (c *call) snapWait(body map[string]any) map[string]any {
	if ms, ok, err := c.ms("wait"); err == nil && ok {
		body["waitMs"] = ms
	}
	return body
}

func (c *call) snapshot(path string) error {
	body, err := c.nums(map[string]string{"top": "top"})
	if err != nil {
		return err
	}
	if t := c.str("tag"); t != "" {
		body["tag"] = t
	}
	return c.post(path, c.snapWait(body))
}

func (c *call) coverageBody() map[string]any {
	body := map[string]any{}
	if f := c.str("file"); f != "" {
		body["file"] = f
	}
	if c.flag("uncovered") {
		body["uncovered"] = true
	}
	return body
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
		c.env.Stdout.Write(r.body)
		return nil
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(c.env.Cwd, out)
	}
	if err := os.WriteFile(out, r.body, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", out, err)
	}
	fmt.Fprintf(c.env.Stdout, "%s  %d bytes\n", out, len(r.body))
	return nil
}

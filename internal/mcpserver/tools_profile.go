package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"traced/api"
)

type profileIn struct {
	sessionIn
	Action    string `json:"action"`
	Top       int    `json:"top,omitempty"`
	File      string `json:"file,omitempty" jsonschema:"coverage of one file"`
	Uncovered bool   `json:"uncovered,omitempty"`
	Ref       string `json:"ref,omitempty" jsonschema:"save: the profile's ref (cpu1)"`
	Path      string `json:"path,omitempty" jsonschema:"save: file to write, inside the workspace"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"save: replace an existing file"`
	WindowMs  int    `json:"windowMs,omitempty" jsonschema:"slow: how long to sample, ms (default 2000)"`
	UntilExit bool   `json:"untilExit,omitempty" jsonschema:"slow: until the program ends"`
}

type heapIn struct {
	sessionIn
	Action    string `json:"action"`
	Tag       string `json:"tag,omitempty" jsonschema:"snapshot name, usable as its ref"`
	From      string `json:"from,omitempty" jsonschema:"diff: older snapshot (hs1 or tag)"`
	To        string `json:"to,omitempty"`
	Top       int    `json:"top,omitempty"`
	Ref       string `json:"ref,omitempty" jsonschema:"save: the snapshot (hs1); job: the job (j1)"`
	Path      string `json:"path,omitempty" jsonschema:"save: file to write, inside the workspace"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"save: replace an existing file"`
	// What holds it, and leak windows.
	Class      string `json:"class,omitempty" jsonschema:"retainers: a constructor name (module-scoped too)"`
	Value      string `json:"value,omitempty" jsonschema:"retainers: a live value ref (v1, o2); without ref, a snapshot is taken"`
	ID         int64  `json:"id,omitempty" jsonschema:"retainers: a snapshot node id"`
	Expression string `json:"expression,omitempty" jsonschema:"leak: the load to run between the window's ends"`
	Iterations int    `json:"iterations,omitempty" jsonschema:"leak: times to run the expression"`
}

func profileTools() []tool {
	return []tool{
		{add: func(s *mcp.Server, c *caller) {
			add(s, "profile", "Why slow (slow: a category per target), why it will not exit (alive); CPU profile (hot lines), coverage; save writes a .cpuprofile.", inSession(c, c.profile))
		}},
		{add: func(s *mcp.Server, c *caller) {
			add(s, "heap", "Heap usage, snapshots, diff, sampling; what holds memory (retainers); leak windows (leak-begin, load, leak-end); save.", inSession(c, c.heap))
		}},
	}
}

func (c *caller) profile(ctx context.Context, sid string, in profileIn) *mcp.CallToolResult {
	top := api.CPUStopRequest{Top: in.Top}
	cov := api.CoverageRequest{File: in.File, Uncovered: in.Uncovered}
	switch in.Action {
	case "cpu-start":
		return answer(c.text(ctx, "POST", debugPath(sid, "cpu/start"), nil, api.CPUStartRequest{}))
	case "cpu-stop":
		return saveHint(answer(c.text(ctx, "POST", debugPath(sid, "cpu/stop"), nil, top)), "profile")
	case "coverage-start":
		return answer(c.text(ctx, "POST", debugPath(sid, "coverage/start"), nil, api.CoverageStartRequest{}))
	case "coverage-take":
		return answer(c.text(ctx, "POST", debugPath(sid, "coverage/take"), nil, cov))
	case "coverage-stop":
		return answer(c.text(ctx, "POST", debugPath(sid, "coverage/stop"), nil, cov))
	case "save":
		return c.save(ctx, sid, "cpu/profiles/", in.Ref, in.Path, ".cpuprofile", in.Overwrite)
	case "slow":
		return answer(c.text(ctx, "POST", debugPath(sid, "slow"), nil, api.SlowRequest{WindowMs: in.WindowMs, UntilExit: in.UntilExit}))
	case "alive":
		return answer(c.text(ctx, "GET", debugPath(sid, "alive"), nil, nil))
	}
	return errorResult("action "+quote(in.Action)+" is not one of slow, alive, cpu-start, cpu-stop, coverage-start, coverage-take, coverage-stop, save",
		`profile {"action":"cpu-start"}, run the code, then {"action":"cpu-stop"}`)
}

func (c *caller) heap(ctx context.Context, sid string, in heapIn) *mcp.CallToolResult {
	switch in.Action {
	case "usage":
		return answer(c.text(ctx, "GET", debugPath(sid, "heap/usage"), nil, nil))
	case "gc":
		return answer(c.text(ctx, "POST", debugPath(sid, "heap/gc"), nil, struct{}{}))
	case "snapshot":
		body := api.SnapshotRequest{Tag: in.Tag, Top: in.Top}
		return saveHint(answer(c.text(ctx, "POST", debugPath(sid, "heap/snapshot"), nil, body)), "heap")
	case "diff":
		body := api.HeapDiffRequest{From: in.From, To: in.To, Top: in.Top}
		return answer(c.text(ctx, "POST", debugPath(sid, "heap/diff"), nil, body))
	case "sample-start":
		return answer(c.text(ctx, "POST", debugPath(sid, "heap/sampling/start"), nil, api.SamplingStartRequest{}))
	case "sample-stop":
		return answer(c.text(ctx, "POST", debugPath(sid, "heap/sampling/stop"), nil, api.SamplingStopRequest{Top: in.Top}))
	case "job":
		if in.Ref == "" {
			return errorResult("action job needs the job's ref (j1)", "a snapshot or diff that outlives its call answers its job's ref")
		}
		return answer(c.text(ctx, "GET", debugPath(sid, "jobs/"+url.PathEscape(in.Ref)), url.Values{"waitMs": {"30000"}}, nil))
	case "save":
		return c.save(ctx, sid, "heap/snapshots/", in.Ref, in.Path, ".heapsnapshot", in.Overwrite)
	case "retainers":
		body := api.HeapRetainersRequest{Snapshot: in.Ref, Class: in.Class, ID: in.ID, Ref: in.Value, Top: in.Top}
		return answer(c.text(ctx, "POST", debugPath(sid, "heap/retainers"), nil, body))
	case "leak-begin":
		return answer(c.text(ctx, "POST", debugPath(sid, "heap/leak/begin"), nil, struct{}{}))
	case "leak-end":
		return answer(c.text(ctx, "POST", debugPath(sid, "heap/leak/end"), nil, api.LeakEndRequest{Top: in.Top}))
	case "leak":
		body := api.LeakEndRequest{Expression: in.Expression, Iterations: in.Iterations, Top: in.Top}
		return answer(c.text(ctx, "POST", debugPath(sid, "heap/leak"), nil, body))
	}
	return errorResult("action "+quote(in.Action)+" is not one of usage, gc, snapshot, diff, sample-start, sample-stop, job, save, retainers, leak-begin, leak-end, leak",
		`heap {"action":"snapshot","tag":"before"}, run the code, snapshot again, then {"action":"diff","from":"before","to":"after"}`)
}

// saveHint ends an answer that names an artefact (ref: cpu1, or download: GET .../hs1, the ref
// last) with the call that writes it to a file.
func saveHint(res *mcp.CallToolResult, tool string) *mcp.CallToolResult {
	if res.IsError || len(res.Content) != 1 {
		return res
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok || !strings.Contains(tc.Text, "download: ") {
		return res
	}
	for line := range strings.Lines(tc.Text) {
		line = strings.TrimSpace(line)
		ref, ok := strings.CutPrefix(line, "ref: ")
		if dl, isDL := strings.CutPrefix(line, "download: "); !ok && isDL { // a layout without a ref line
			ref, ok = dl[strings.LastIndexByte(dl, '/')+1:], true
		}
		if ok {
			tc.Text += fmt.Sprintf("save: the tool %s {\"action\":\"save\",\"ref\":%q} writes it to a file\n", tool, ref)
			break
		}
	}
	return res
}

// save writes an artefact (a profile, a snapshot) to a file inside the workspace root and names
// it: artefacts are never inlined into an answer. The download streams into the file, which
// replaces an existing one only with overwrite.
func (c *caller) save(ctx context.Context, sid, route, ref, path, ext string, overwrite bool) *mcp.CallToolResult {
	if ref == "" {
		return errorResult("action save needs the ref", "the ref is in the answer that made it (cpu1, hs1)")
	}
	var status struct {
		Root string `json:"root"`
	}
	if err := c.decode(ctx, "GET", "/api/trace/status", nil, nil, &status); err != nil {
		return failure(err)
	}
	if path == "" {
		path = ref + ext
	}
	f, err := createInRoot(status.Root, path)
	if errors.Is(err, errOutside) {
		return errorResult(fmt.Sprintf("path %q is outside the workspace root %s (symlinks followed)", path, status.Root), "give a path inside the workspace, e.g. "+ref+ext)
	}
	if err != nil {
		return errorResult(err.Error(), "give a path in an existing, writable directory of the workspace")
	}
	defer f.cleanup()
	if err := c.api.Save(ctx, debugPath(sid, route+url.PathEscape(ref)), nil, f.File); err != nil {
		return failure(err)
	}
	info, err := f.Stat()
	if err == nil {
		err = f.File.Close() // a write error may surface only here
	}
	if err != nil {
		return failure(fmt.Errorf("write %s: %w", f.Path, err))
	}
	if err := f.commit(overwrite); errors.Is(err, errExists) {
		return errorResult(fmt.Sprintf("%s exists", f.Path), fmt.Sprintf(`{"action":"save","ref":%q,"path":%q,"overwrite":true} replaces it; or give another path`, ref, path))
	} else if err != nil {
		return failure(err)
	}
	return textResult(fmt.Sprintf("saved %s to %s (%d bytes); open it in Chrome DevTools", ref, f.Path, info.Size()))
}

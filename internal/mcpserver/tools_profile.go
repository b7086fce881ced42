package mcpserver

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
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
}

type heapIn struct {
	sessionIn
	Action string `json:"action"`
	Tag    string `json:"tag,omitempty" jsonschema:"snapshot name, usable as its ref"`
	From   string `json:"from,omitempty" jsonschema:"diff: older snapshot (hs1 or tag)"`
	To     string `json:"to,omitempty"`
	Top    int    `json:"top,omitempty"`
	Ref    string `json:"ref,omitempty" jsonschema:"save: the snapshot (hs1); job: the job (j1)"`
	Path   string `json:"path,omitempty" jsonschema:"save: file to write, inside the workspace"`
}

func profileTools() []tool {
	return []tool{
		{add: func(s *mcp.Server, c *caller) {
			add(s, "profile", "CPU profile (top functions) and precise coverage; save writes a .cpuprofile to a file.", inSession(c, c.profile))
		}},
		{add: func(s *mcp.Server, c *caller) {
			add(s, "heap", "Heap usage, snapshots (summarised; named by ref and URL), diff of two, allocation sampling; save writes a .heapsnapshot.", inSession(c, c.heap))
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
		return c.save(ctx, sid, "cpu/profiles/", in.Ref, in.Path, ".cpuprofile")
	}
	return errorResult("action "+quote(in.Action)+" is not one of cpu-start, cpu-stop, coverage-start, coverage-take, coverage-stop, save",
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
		return c.save(ctx, sid, "heap/snapshots/", in.Ref, in.Path, ".heapsnapshot")
	}
	return errorResult("action "+quote(in.Action)+" is not one of usage, gc, snapshot, diff, sample-start, sample-stop, job, save",
		`heap {"action":"snapshot","tag":"before"}, run the code, snapshot again, then {"action":"diff","from":"before","to":"after"}`)
}

// saveHint ends an answer that names an artefact (ref: cpu1, download: GET ...) with the call
// that writes it to a file.
func saveHint(res *mcp.CallToolResult, tool string) *mcp.CallToolResult {
	if res.IsError || len(res.Content) != 1 {
		return res
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok || !strings.Contains(tc.Text, "download: ") {
		return res
	}
	for line := range strings.Lines(tc.Text) {
		if ref, ok := strings.CutPrefix(strings.TrimSpace(line), "ref: "); ok {
			tc.Text += fmt.Sprintf("save: the tool %s {\"action\":\"save\",\"ref\":%q} writes it to a file\n", tool, ref)
			break
		}
	}
	return res
}

// save writes an artefact (a profile, a snapshot) to a file inside the workspace root and names
// it: artefacts are never inlined into an answer. The download streams into the file.
func (c *caller) save(ctx context.Context, sid, route, ref, path, ext string) *mcp.CallToolResult {
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
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(status.Root, path)
	}
	rel, err := filepath.Rel(status.Root, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return errorResult(fmt.Sprintf("path %q is outside the workspace root %s", path, status.Root), "give a path inside the workspace, e.g. "+ref+ext)
	}
	f, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".*")
	if err != nil {
		return errorResult(fmt.Sprintf("create %s: %v", abs, err), "give a path in an existing, writable directory of the workspace")
	}
	defer os.Remove(f.Name()) // once renamed, nothing to remove
	err = c.api.Save(ctx, debugPath(sid, route+url.PathEscape(ref)), nil, f)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write %s: %w", abs, cerr)
	}
	if err != nil {
		return failure(err)
	}
	info, err := os.Stat(f.Name())
	if err != nil {
		return failure(err)
	}
	if err := os.Rename(f.Name(), abs); err != nil {
		return failure(fmt.Errorf("save %s: %w", abs, err))
	}
	return textResult(fmt.Sprintf("saved %s to %s (%d bytes); open it in Chrome DevTools", ref, abs, info.Size()))
}

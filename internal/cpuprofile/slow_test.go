package cpuprofile

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDiagnoseFixtures: real profiles of the slow-program fixtures, on every installed node,
// are named by the answer's first line: the category, and for a hot inlined function its own
// name and line.
func TestDiagnoseFixtures(t *testing.T) {
	for version, node := range nodeBinaries(t) {
		t.Run(version, func(t *testing.T) {
			dir := fixtureDir(t)
			for _, c := range []struct {
				script string
				want   Category
				first  []string // in the first line
				check  func(t *testing.T, d Diagnosis)
			}{
				{"inline.js", CategoryCPUUser, []string{"hottest mix (", "inline.js:4"}, checkInlined},
				{"regex.js", CategoryCPUDependency, []string{"RegExp: ^(a+)+$", "run by matches node_modules/slowparse/index.js:5"}, nil},
				{"gc.js", CategoryGC, []string{"garbage collector"}, nil},
				{"stall.js", CategoryBlocked, []string{"of them", "in blockFor 001/stall.js:3"}, checkStalls},
				{"io.js", CategoryIOWait, nil, nil},
				{"idle.js", CategoryIdle, nil, nil},
			} {
				t.Run(c.script, func(t *testing.T) {
					p := profileOf(t, node, dir, c.script)
					d := DiagnoseAll([]TargetProfile{{Name: "main", Profile: p, Options: Options{Ranges: fixtureRanges(t)}}})[0]
					text := RenderDiagnoses([]Diagnosis{d}, 0)
					t.Logf("%d bytes:\n%s", len(text), text)
					first, _, _ := strings.Cut(text, "\n")
					if !strings.HasPrefix(first, "main: "+string(c.want)+": ") {
						t.Errorf("category: got %q, want %s", first, c.want)
					}
					for _, s := range c.first {
						if !strings.Contains(first, s) {
							t.Errorf("first line %q lacks %q", first, s)
						}
					}
					if len(text) > MaxTextBytes {
						t.Errorf("%d bytes, more than %d", len(text), MaxTextBytes)
					}
					if c.check != nil {
						c.check(t, d)
					}
				})
			}
		})
	}
}

// checkInlined: V8 compiles mix into run; its line's ticks are mix's, not run's.
func checkInlined(t *testing.T, d Diagnosis) {
	t.Helper()
	mix := d.Top[0]
	if mix.Name != "mix" || len(mix.Lines) == 0 || mix.Lines[0].Line != 4 || mix.SelfPct < 50 {
		t.Fatalf("top function: %+v, want mix hot at line 4", mix)
	}
	if filepath.Base(mix.URL) != "inline.js" || mix.Start.Line != 2 {
		t.Errorf("mix at %s:%d, want inline.js:2", mix.URL, mix.Start.Line)
	}
	if !slices.Contains(mix.InlinedInto, "run") {
		t.Logf("mix never inlined here: %+v", mix) // an older V8 may keep it apart
	}
}

// checkStalls: each 200 ms run of the interval is a stall with blockFor on top (start-up may
// add one of its own).
func checkStalls(t *testing.T, d Diagnosis) {
	t.Helper()
	blocked := 0
	for _, s := range d.Stalls {
		if len(s.Stack) > 0 && strings.HasPrefix(s.Stack[0], "blockFor ") {
			blocked++
			if s.DurationMs < 150 {
				t.Errorf("stall %+v, want 200 ms", s)
			}
		}
	}
	if blocked < 4 {
		t.Errorf("%d stalls in blockFor, want 4: %+v", blocked, d.Stalls)
	}
}

// TestDiagnoseWorker: with the hot work in a worker, one answer names both targets: the main
// thread waiting, the worker CPU-bound in its hot function.
func TestDiagnoseWorker(t *testing.T) {
	for version, node := range nodeBinaries(t) {
		t.Run(version, func(t *testing.T) {
			ps := profilesOf(t, node, fixtureDir(t), "hotworker.js")
			if len(ps) != 2 {
				t.Fatalf("%d profiles, want the main thread's and the worker's", len(ps))
			}
			ds := DiagnoseAll([]TargetProfile{
				{Name: "main", Profile: ps[0], Options: Options{Ranges: fixtureRanges(t)}},
				{Name: "worker 1", Profile: ps[1], Options: Options{Ranges: fixtureRanges(t)}},
			})
			text := RenderDiagnoses(ds, 0)
			t.Logf("%d bytes:\n%s", len(text), text)
			if len(text) > MaxTextBytes {
				t.Errorf("%d bytes, more than %d", len(text), MaxTextBytes)
			}
			if ds[0].Category == CategoryCPUUser || ds[1].Category != CategoryCPUUser {
				t.Errorf("categories %s, %s; want the worker's alone cpu-user", ds[0].Category, ds[1].Category)
			}
			if !strings.Contains(text, "\nworker 1: cpu-user: ") || !strings.Contains(text, "hottest mix (") {
				t.Errorf("the worker's line does not name mix")
			}
		})
	}
}

// TestDeoptReasons: whatever deopt reasons a real profile carries reach the summary. (Node 20
// to 26 put none in the profile of this deoptimising fixture: the log says which do.)
func TestDeoptReasons(t *testing.T) {
	for version, node := range nodeBinaries(t) {
		t.Run(version, func(t *testing.T) {
			p := profileOf(t, node, fixtureDir(t), "deopt.js")
			given := 0
			for _, n := range p.Nodes {
				if n.DeoptReason != "" {
					given++
				}
			}
			kept := 0
			for _, f := range Summarize(p, Options{}).Functions {
				if f.Deopt != "" {
					kept++
				}
			}
			t.Logf("%d nodes with a deopt reason, %d functions keep one", given, kept)
			if given > 0 && kept == 0 {
				t.Error("deopt reasons lost")
			}
		})
	}
}

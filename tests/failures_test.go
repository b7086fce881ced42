package tests

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"traced/api"
	"traced/internal/service"
)

// TestFailingTests: for every runner, evidence lists the failing tests as the runner reports
// them (name with its suite, the assertion's line, Expected and Received, the throwing frame's
// locals) and the failure is that test, never the TypeError a passing test expects
// (assert.throws / expect().toThrow) nor the later expected rejection.
func TestFailingTests(t *testing.T) {
	t.Parallel()
	needRunners(t)
	const dir = "failing/"
	cases := []struct {
		name string
		req  api.StartRequest
		file string
		line int
	}{
		{"node --test", api.StartRequest{Target: dir + "nt.test.js", NodeArgs: []string{"--test"}, Cwd: runnersDir}, "nt.test.js", 10},
		{"mocha", api.StartRequest{Target: "node_modules/mocha/bin/mocha.js", Args: []string{dir + "mo.test.js"}, Cwd: runnersDir}, "mo.test.js", 9},
		{"mocha --parallel", api.StartRequest{Target: "node_modules/mocha/bin/mocha.js", Args: []string{"--parallel", dir + "mo.test.js"}, Cwd: runnersDir}, "mo.test.js", 9},
		{"jest", api.StartRequest{Target: "node_modules/jest/bin/jest.js", Args: []string{"--no-cache", dir + "je"}, Cwd: runnersDir}, "je.test.js", 8},
		{"vitest (forks)", api.StartRequest{Target: "node_modules/vitest/vitest.mjs", Args: []string{"run", dir + "vi"}, Cwd: runnersDir}, "vi.test.mjs", 9},
		{"vitest --pool=threads", api.StartRequest{Target: "node_modules/vitest/vitest.mjs", Args: []string{"run", "--pool=threads", dir + "vi"}, Cwd: runnersDir}, "vi.test.mjs", 9},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			s := h.start(c.req)
			if sum := h.waitExit(s.ID); sum.ExitCode == nil || *sum.ExitCode == 0 {
				t.Fatalf("exit %+v, want a failure", sum)
			}
			ev := h.evidenceOf(s.ID)
			if len(ev.FailingTests) != 1 {
				t.Fatalf("failing tests %+v, want one (cart › totals)", ev.FailingTests)
			}
			ft := ev.FailingTests[0]
			if ft.Name != "cart › totals" || ft.Location == nil || ft.Location.File != dir+c.file || ft.Location.Line != c.line {
				t.Fatalf("failing test %+v at %+v, want cart › totals at %s:%d", ft, ft.Location, dir+c.file, c.line)
			}
			if ft.Expected != "11" || ft.Received != "4" || !strings.Contains(ft.Message, "11") {
				t.Fatalf("expected %q received %q message %q, want 11, 4 and a message naming them", ft.Expected, ft.Received, ft.Message)
			}
			if !hasLocal(ft.Locals, "sum", "4") {
				t.Fatalf("locals %+v, want sum = 4", ft.Locals)
			}
			f := ev.Failure
			if f.Test != ft.Name || f.Location == nil || filepath.Base(f.Location.File) != c.file || f.Kind != api.FailureThrow {
				t.Fatalf("failure %+v at %+v, want the failing test's throw", f, f.Location)
			}
		})
	}
}

func hasLocal(vars []api.Variable, name, value string) bool {
	for _, v := range vars {
		if v.Name == name && v.Value == value {
			return true
		}
	}
	return false
}

// TestFailingTestsPublishedSuite: a published package's own suite (fraction.js's 314 mocha-style
// tests, dozens of which expect throws and pass) runs green under traced with mocha, node --test
// (its describe and it lent as globals) and vitest (--globals), and with a planted bug the
// evidence names exactly the two failing tests, their assertion line and values.
func TestFailingTestsPublishedSuite(t *testing.T) {
	t.Parallel()
	needRunners(t)
	cases := []struct {
		name     string
		req      api.StartRequest
		exp, got string // the first failing test's expected and received, as the runner prints them
	}{
		{"mocha", api.StartRequest{Target: "../../node_modules/mocha/bin/mocha.js", Args: []string{"tests/fraction.test.js"}}, "74", "-74"},
		{"node --test", api.StartRequest{Target: "tests/fraction.test.js", NodeArgs: []string{"--require", "../node-test-globals.cjs", "--test"}}, "74", "-74"},
		{"vitest", api.StartRequest{Target: "../../node_modules/vitest/vitest.mjs", Args: []string{"run", "--globals", "tests/fraction.test.js"}}, `"74"`, `"-74"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// node --test's TAP of 314 tests is ~2,000 lines: the service's default ring holds them.
			h := newHarness(t, func(o *service.Options) { o.Engine.MaxEvents = 10000 })
			var printed string
			run := func(dir string) (api.Summary, *api.EvidenceResult) {
				req := c.req
				req.Cwd = dir
				s := h.start(req)
				sum := h.waitExit(s.ID)
				printed = h.printed(s.ID)
				var res api.EvidenceResponse
				h.call("GET", "/api/trace/evidence?id="+s.ID, nil, &res)
				return sum, &res.EvidenceResult
			}
			if sum, res := run(runnersDir + "/realworld/fraction"); sum.ExitCode == nil || *sum.ExitCode != 0 || res.Evidence != nil {
				t.Fatalf("the published suite: exit %+v, evidence %+v, want a green run", sum, res)
			}
			// abs() keeps the sign.
			sum, res := run(planted(t, runnersDir+"/realworld/fraction", "dist/fraction.js",
				`return newFraction(this["n"], this["d"]);`, `return newFraction(this["s"] * this["n"], this["d"]);`))
			if sum.ExitCode == nil || *sum.ExitCode == 0 || res.Evidence == nil {
				t.Fatalf("planted: exit %+v, evidence %+v, want a failed run", sum, res)
			}
			var got []string
			for _, ft := range res.Evidence.FailingTests {
				where := ""
				if ft.Location != nil {
					where = ft.Location.Where()
				}
				got = append(got, fmt.Sprintf("%s @ %s", ft.Name, where))
				if ft.ThrowSeq == 0 {
					t.Errorf("%s: no throw matched", ft.Name)
				}
			}
			want := []string{"Fraction › abs(-222/3) @ tests/fraction.test.js:1583", "Fraction › abs(-100.25) @ tests/fraction.test.js:1583"}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("failing tests\n%s\nwant\n%s\nthe run printed (its end):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), printed[max(0, len(printed)-3000):])
			}
			if ft := res.Evidence.FailingTests[0]; ft.Expected != c.exp || ft.Received != c.got {
				t.Fatalf("expected %q received %q, want %q and %q", ft.Expected, ft.Received, c.exp, c.got)
			}
			if f := res.Evidence.Failure; f.Test != "Fraction › abs(-222/3)" {
				t.Fatalf("failure %+v, want the first failing test", f)
			}
		})
	}
}

// publishedJestDir holds cron@2.3.0's own jest suite, with its lockfile (jest 29, luxon, sinon).
const publishedJestDir = "runners/realworld-jest"

func needPublishedJest(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(filepath.Join("testdata", publishedJestDir, "node_modules", ".package-lock.json")); err != nil {
		t.Fatalf("the published jest suite is not installed (make test runs npm ci in tests/testdata/%s): %v", publishedJestDir, err)
	}
}

// suiteWait is how long a whole published suite may take between two events: over 30 s on a
// busy machine (its coverage instrumentation, 122 tests).
const suiteWait = 3 * time.Minute

// waitLong is waitFor with suiteWait for its deadline.
func (h *harness) waitLong(id string, after uint64, kinds string) api.WaitResponse {
	h.t.Helper()
	return h.waitWithin(id, after, kinds, suiteWait)
}

// TestFailingTestsPublishedJest: a published package's own jest suite (cron@2.3.0: 122 tests in
// two files, its coverage on as its jest config says, dozens expecting throws) runs green under
// traced, and with a planted bug the evidence names exactly its three failing tests, in both
// files: the assertion's line, jest's whole message with Expected and Received, the locals.
func TestFailingTestsPublishedJest(t *testing.T) {
	t.Parallel()
	needPublishedJest(t)
	h := newHarness(t, func(o *service.Options) { o.Engine.MaxEvents = 10000 })
	var printed string
	run := func(dir string) (api.Summary, *api.EvidenceResult) {
		// Its utcOffset tests use the machine's zone; the coverage report goes to a temp dir.
		s := h.start(api.StartRequest{Target: "../node_modules/jest/bin/jest.js", Args: []string{"--no-cache", "--coverageDirectory", t.TempDir()},
			Cwd: dir, Env: map[string]string{"TZ": "UTC"}})
		h.waitLong(s.ID, 0, "exit")
		sum := h.waitExit(s.ID)
		printed = h.printed(s.ID)
		var res api.EvidenceResponse
		h.call("GET", "/api/trace/evidence?id="+s.ID, nil, &res)
		return sum, &res.EvidenceResult
	}
	if sum, res := run(publishedJestDir + "/cron"); sum.ExitCode == nil || *sum.ExitCode != 0 || res.Evidence != nil {
		t.Fatalf("the published suite: exit %+v, evidence %+v, want a green run; it printed (its end):\n%s", sum, res, printed[max(0, len(printed)-3000):])
	}
	// sendAt() loses the sign of a negative UTC offset.
	sum, res := run(planted(t, publishedJestDir+"/cron", "lib/time.js", "utcZone += offset;", "utcZone += `+${-offset}`;"))
	if sum.ExitCode == nil || *sum.ExitCode == 0 || res.Evidence == nil {
		t.Fatalf("planted: exit %+v, evidence %+v, want a failed run", sum, res)
	}
	// Each test as the list gives it: name, assertion line, expected and received, a local, and
	// jest's whole message (toHaveBeenCalledTimes names its values "Expected number of calls").
	type row struct{ where, exp, got, local, msg string }
	want := map[string]row{
		"crontime › should accept -120 as a valid UTC offset": {
			"tests/crontime.test.js:620", "46800", "32400", "actual=32400", "Expected: 46800\nReceived: 32400"},
		"cron › with utcOffset › should run a job using cron syntax with number format utcOffset": {
			"tests/cron.test.js:814", "1", "0", "utcOffset=-60", "Expected number of calls: 1\nReceived number of calls: 0"},
		"cron › with utcOffset › should run a job using cron syntax with string format utcOffset": {
			"tests/cron.test.js:849", "1", "0", "utcOffsetString='-01:00'", "Expected number of calls: 1\nReceived number of calls: 0"},
	}
	var names []string
	for _, ft := range res.Evidence.FailingTests {
		names = append(names, ft.Name)
		w, ok := want[ft.Name]
		if !ok {
			continue
		}
		where := ""
		if ft.Location != nil {
			where = ft.Location.Where()
		}
		name, value, _ := strings.Cut(w.local, "=")
		if where != w.where || ft.Expected != w.exp || ft.Received != w.got || !hasLocal(ft.Locals, name, value) ||
			!strings.Contains(ft.Message, w.msg) || ft.ThrowSeq == 0 || ft.Target != "" {
			t.Errorf("%s: at %s, expected %q received %q, locals %+v, message %q, throw %d, target %q;\nwant at %s, %q and %q, %s, %q, a throw, the main thread",
				ft.Name, where, ft.Expected, ft.Received, ft.Locals, ft.Message, ft.ThrowSeq, ft.Target, w.where, w.exp, w.got, w.local, w.msg)
		}
	}
	// jest runs the larger file first; the list is in the order the runner reported them.
	sorted := slices.Sorted(maps.Keys(want))
	if got := slices.Sorted(slices.Values(names)); !slices.Equal(got, sorted) {
		t.Fatalf("failing tests\n%s\nwant\n%s\nthe run printed (its end):\n%s", strings.Join(names, "\n"), strings.Join(sorted, "\n"), printed[max(0, len(printed)-3000):])
	}
	if f := res.Evidence.Failure; f.Test != names[0] || f.Kind != api.FailureThrow {
		t.Fatalf("failure %+v, want the first failing test's throw", f)
	}
}

package engine

import (
	"errors"
	"strings"
	"testing"
)

// TestSplitLocationBounds: bpspec's errors are the engine's bad input, their text kept (the
// bounds themselves are bpspec's tests).
func TestSplitLocationBounds(t *testing.T) {
	for _, c := range []struct{ location, bad string }{
		{"app.js:1000000001", "line 1000000001 is past"},
		{"app.js:0", "lines start at 1"},
		{"app.js", `bad input: location "app.js" is not file:line`},
	} {
		_, _, _, err := splitLocation(c.location)
		if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.bad) {
			t.Errorf("%s: %v, want bad input saying %q", c.location, err, c.bad)
		}
	}
	if _, line, _, err := splitLocation("app.js:7"); err != nil || line != 7 {
		t.Errorf("app.js:7: %d %v", line, err)
	}
}

// TestCheckStartPoints: a start request's malformed point is refused before a spawn, named by
// its field.
func TestCheckStartPoints(t *testing.T) {
	for _, c := range []struct {
		req  StartRequest
		want string
	}{
		{StartRequest{Breakpoints: []BreakpointSpec{{Location: "a.js:1"}, {Location: "a.js:99999999999"}}}, "breakpoints.1"},
		{StartRequest{Breakpoints: []BreakpointSpec{{URLRegex: "a", Line: MaxPosition + 1}}}, "breakpoints.0"},
		{StartRequest{Breakpoints: []BreakpointSpec{{URLRegex: "a", Line: 1, Column: -1}}}, "breakpoints.0"},
		{StartRequest{Logpoints: []LogpointSpec{{Location: "a.js"}}}, "logpoints.0"},
		{StartRequest{Breakpoints: []BreakpointSpec{{Location: "a.js:9"}}, Logpoints: []LogpointSpec{{Location: "a.js:9", Template: "x"}}}, "logpoints.0"},
		{StartRequest{Breakpoints: []BreakpointSpec{{URLRegex: "a", Line: 2}, {URLRegex: "a", Line: 2}}}, "breakpoints.1"},
	} {
		err := checkStartPoints(&c.req)
		if !errors.Is(err, ErrBadInput) || !strings.HasPrefix(err.Error(), c.want+": ") || strings.Count(err.Error(), c.want) != 1 {
			t.Errorf("%+v: %v, want bad input naming %s", c.req, err, c.want)
		}
	}
	ok := StartRequest{Breakpoints: []BreakpointSpec{{Location: "a.js:1:2"}, {Location: "a.js:1"}, {URLRegex: "a", Line: 3}},
		Logpoints: []LogpointSpec{{Location: "a.js:4", Template: "x"}}}
	if err := checkStartPoints(&ok); err != nil {
		t.Errorf("well-formed points refused: %v", err)
	}
}

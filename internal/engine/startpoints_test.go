package engine

import (
	"errors"
	"strings"
	"testing"
)

// TestSplitLocationBounds: a line or column past MaxPosition (CDP takes int32) is bad input, not a
// number V8 refuses later; so are digits past int64, which Atoi cannot read.
func TestSplitLocationBounds(t *testing.T) {
	for _, c := range []struct {
		location  string
		line, col int
		bad       string // a substring of the error, "" when accepted
	}{
		{"app.js:7", 7, 0, ""},
		{"app.js:7:3", 7, 3, ""},
		{"app.js:1000000000:1000000000", MaxPosition, MaxPosition, ""},
		{"app.js:1000000001", 0, 0, "line 1000000001 is past"},
		{"app.js:99999999999", 0, 0, "line 99999999999 is past"},
		{"app.js:7:2147483648", 0, 0, "column 2147483648 is past"},
		{"app.js:99999999999999999999999", 0, 0, "line"},
		{"app.js:0", 0, 0, "lines start at 1"},
		{"app.js", 0, 0, "not file:line"},
	} {
		_, line, col, err := splitLocation(c.location)
		switch {
		case c.bad == "" && (err != nil || line != c.line || col != c.col):
			t.Errorf("%s: %d:%d %v, want %d:%d", c.location, line, col, err, c.line, c.col)
		case c.bad != "" && (!errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("%s: %v, want bad input saying %q", c.location, err, c.bad)
		}
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

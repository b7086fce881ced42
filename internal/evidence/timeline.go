package evidence

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"traced/internal/engine"
)

// maxTransitions caps PreviousStateTransitions: ten events show what led up to a failure while
// keeping the answer small enough to paste into a prompt.
const maxTransitions = 10

// maxSummary caps an Item's Summary in bytes: one readable line, not a whole log message.
const maxSummary = 200

// immediateCause is the last user event in before: a console call or a pause located in the
// user's own code (not node's, not a package's: a test runner's reporter printing a test's
// name is not a cause). It is nil when there is none.
func immediateCause(before []engine.Event) *Item {
	for i := len(before) - 1; i >= 0; i-- {
		if e := before[i]; userEvent(e) {
			it := item(e)
			return &it
		}
	}
	return nil
}

func userEvent(e engine.Event) bool {
	switch {
	case e.Kind == engine.KindConsole && e.Console != nil:
		return ownCode(e.Console.Frame)
	case e.Kind == engine.KindPause && e.Pause != nil:
		return ownCode(e.Pause.Location)
	}
	return false
}

// ownCode reports whether f is in the user's own code: neither node's nor a package's.
func ownCode(f *engine.Frame) bool {
	return f != nil && !f.Internal && !strings.Contains(f.File, "node_modules/") && !strings.Contains(f.URL, "/node_modules/")
}

// transitions are the last maxTransitions state changes in before, oldest first: console calls,
// user scripts being parsed, pauses and resumes. Node parses hundreds of internal scripts at
// start-up, so those are left out.
func transitions(before []engine.Event) []Item {
	items := []Item{}
	for i := len(before) - 1; i >= 0 && len(items) < maxTransitions; i-- {
		if e := before[i]; transition(e) {
			items = append(items, item(e))
		}
	}
	for i, j := 0, len(items)-1; i < j; i, j = i+1, j-1 {
		items[i], items[j] = items[j], items[i]
	}
	return items
}

func transition(e engine.Event) bool {
	switch e.Kind {
	case engine.KindConsole:
		return e.Console != nil
	case engine.KindScript:
		return e.Script != nil && !e.Script.Internal
	case engine.KindPause, engine.KindResume:
		return true
	}
	return false
}

// item retells e in one line. Only console, script, pause and resume events reach it.
func item(e engine.Event) Item {
	it := Item{Seq: e.Seq, Kind: e.Kind, Target: e.Target}
	switch {
	case e.Console != nil:
		it.Summary = fmt.Sprintf("console.%s: %s", e.Console.Level, e.Console.Text.Value)
		it.Location = cloneFrame(e.Console.Frame)
	case e.Script != nil:
		it.Summary = "script parsed: " + where(&engine.Frame{File: e.Script.File, URL: e.Script.URL})
	case e.Pause != nil:
		it.Summary = fmt.Sprintf("paused (%s)", e.Pause.Reason)
		if e.Pause.Location != nil {
			it.Summary += " at " + where(e.Pause.Location)
		}
		it.Location = cloneFrame(e.Pause.Location)
	case e.Kind == engine.KindResume:
		it.Summary = "resumed"
	default:
		it.Summary = string(e.Kind)
	}
	it.Summary = oneLine(it.Summary)
	return it
}

// oneLine folds s onto one line and caps it at maxSummary bytes without splitting a rune.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxSummary {
		return s
	}
	const ellipsis = "…"
	cut := maxSummary - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}

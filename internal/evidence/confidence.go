package evidence

import (
	"fmt"

	"traced/internal/engine"
)

// Confidence says how far the evidence locates the failure in the user's own code.
type Confidence string

// Confidence levels, from DESIGN.md section 5.
const (
	// ConfidenceHigh: the failure resolves to a user file and the immediate cause is in that file.
	ConfidenceHigh Confidence = "high"
	// ConfidenceMedium: the failure resolves to a user file but the cause is elsewhere or absent.
	ConfidenceMedium Confidence = "medium"
	// ConfidenceLow: no user location resolves, as for an exit without an exception.
	ConfidenceLow Confidence = "low"
)

// Caveat is attached to every Evidence so that no reader mistakes proximity for proof.
const Caveat = "Events near the failure: correlation, not causation. " +
	"The cause named is only the closest earlier user event; confirm it before acting on it."

// rate grades the evidence. ex is the failing exception, nil for an exit failure.
func rate(f Failure, ex *engine.ExceptionInfo, cause *Item) (Confidence, string) {
	if ex == nil {
		return ConfidenceLow, fmt.Sprintf("The process ended with %s and no exception, so no source location resolves.", exitText(f))
	}
	site := userSite(ex)
	if site == nil {
		return ConfidenceLow, "The throw site and every stack frame are node internals or lack a source file, so no user location resolves."
	}
	switch {
	case cause == nil:
		return ConfidenceMedium, fmt.Sprintf("The failure resolves to user file %s but no user event preceded it.", where(site))
	case sameFile(site, cause.Location):
		return ConfidenceHigh, fmt.Sprintf("The failure resolves to user file %s and the immediate cause is in the same file.", where(site))
	default:
		return ConfidenceMedium, fmt.Sprintf("The failure resolves to user file %s but the immediate cause is in another file, %s.",
			where(site), where(cause.Location))
	}
}

// userSite is the user location of an exception: its throw site when that is user code, else the
// innermost user frame on its stack, else nil.
func userSite(x *engine.ExceptionInfo) *engine.Frame {
	if f := throwSite(x); userFrame(f) {
		return f
	}
	for i := range x.Stack {
		if userFrame(&x.Stack[i]) {
			return &x.Stack[i]
		}
	}
	return nil
}

// userFrame reports whether f is in the user's own code: not internal, with a file or a non-node URL.
func userFrame(f *engine.Frame) bool {
	return f != nil && !f.Internal && (f.File != "" || (f.URL != "" && !engine.InternalURL(f.URL)))
}

// sameFile reports whether a and b are in the same file, by local path when both have one.
func sameFile(a, b *engine.Frame) bool {
	switch {
	case a == nil || b == nil:
		return false
	case a.File != "" && b.File != "":
		return a.File == b.File
	default:
		return a.URL != "" && a.URL == b.URL
	}
}

// where renders f as file:line for a human.
func where(f *engine.Frame) string {
	if f == nil {
		return "<unknown>"
	}
	return f.Where()
}

// exitText renders an exit status, e.g. "exit code 1" or "signal SIGKILL".
func exitText(f Failure) string {
	if f.Signal != "" {
		return "signal " + f.Signal
	}
	if f.ExitCode != nil {
		return fmt.Sprintf("exit code %d", *f.ExitCode)
	}
	return "unknown exit status"
}

package engine

import "unique"

// frameAt builds a user-facing frame from a CDP position. CDP lines and columns are 0-based and
// users see 1-based ones: this is the one place the engine converts. Its strings are interned:
// every console call of a loop names the same function, URL and file, and a retained session
// keeps thousands of them.
func frameAt(function, url string, line0, col0 int, cwd string) Frame {
	return Frame{
		Function: intern(function),
		URL:      intern(url),
		File:     intern(fileOf(url, cwd)),
		Line:     line0 + 1,
		Column:   col0 + 1,
		Internal: InternalURL(url),
	}
}

// intern returns the canonical copy of s.
func intern(s string) string {
	if s == "" {
		return ""
	}
	return unique.Make(s).Value()
}

// maxFrames caps a captured stack: enough to see the path into a failure, small for a reader.
const maxFrames = 32

package engine

// frameAt builds a user-facing frame from a CDP position. CDP lines and columns are 0-based and
// users see 1-based ones: this is the one place the engine converts.
func frameAt(function, url string, line0, col0 int, cwd string) Frame {
	return Frame{
		Function: function,
		URL:      url,
		File:     fileOf(url, cwd),
		Line:     line0 + 1,
		Column:   col0 + 1,
		Internal: InternalURL(url),
	}
}

// maxFrames caps a captured stack: enough to see the path into a failure, small for a reader.
const maxFrames = 32

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

// framesOf converts a CDP stack trace, innermost first, capped at maxFrames.
func framesOf(st *stackTrace, cwd string) []Frame {
	if st == nil {
		return nil
	}
	frames := make([]Frame, 0, min(len(st.CallFrames), maxFrames))
	for _, f := range st.CallFrames {
		if len(frames) == maxFrames {
			break
		}
		frames = append(frames, frameAt(f.FunctionName, f.URL, f.LineNumber, f.ColumnNumber, cwd))
	}
	return frames
}

// maxFrames caps a captured stack: enough to see the path into a failure, small for a reader.
const maxFrames = 32

package engine

import "fmt"

// checkStartPoints refuses a malformed start breakpoint or logpoint before node is spawned, with
// the field named: found in prepare, the same error would cost a spawn and read as a failed start.
// Two points at one location are refused too: V8 keeps one breakpoint per location.
func checkStartPoints(req *StartRequest) error {
	seen := map[string]string{} // location -> the field that took it
	take := func(field, at string) error {
		if other, ok := seen[at]; ok {
			return fmt.Errorf("%w: %s is at the same location; V8 keeps one point per location", ErrBadInput, other)
		}
		seen[at] = field
		return nil
	}
	for i, bp := range req.Breakpoints {
		field := fmt.Sprintf("breakpoints.%d", i)
		var err error
		switch {
		case bp.URLRegex != "" && bp.Location != "":
			err = fmt.Errorf("%w: location and urlRegex exclude each other", ErrBadInput)
		case bp.URLRegex != "":
			if err = checkPositions(bp.Line, bp.Column); err == nil {
				err = take(field, fmt.Sprintf("/%s/:%d:%d", bp.URLRegex, bp.Line, bp.Column))
			}
		default:
			var file string
			var line, col int
			if file, line, col, err = splitLocation(bp.Location); err == nil {
				err = take(field, fmt.Sprintf("%s:%d:%d", file, line, col))
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", field, err)
		}
	}
	for i, lp := range req.Logpoints {
		field := fmt.Sprintf("logpoints.%d", i)
		file, line, col, err := splitLocation(lp.Location)
		if err == nil {
			err = take(field, fmt.Sprintf("%s:%d:%d", file, line, col))
		}
		if err != nil {
			return fmt.Errorf("%s: %w", field, err)
		}
	}
	return nil
}

// checkPositions bounds the line (required, 1-based) and column (0: none) of a urlRegex breakpoint.
func checkPositions(line, col int) error {
	switch {
	case line < 1:
		return fmt.Errorf("%w: line %d: lines start at 1", ErrBadInput, line)
	case line > MaxPosition:
		return fmt.Errorf("%w: line %d is past %d", ErrBadInput, line, MaxPosition)
	case col < 0 || col > MaxPosition:
		return fmt.Errorf("%w: column %d is not within 1..%d", ErrBadInput, col, MaxPosition)
	}
	return nil
}

package engine

import "fmt"

// checkStartPoints refuses a malformed start breakpoint or logpoint before node is spawned, with
// the field named: found in prepare, the same error would cost a spawn and read as a failed start.
func checkStartPoints(req *StartRequest) error {
	for i, bp := range req.Breakpoints {
		field := fmt.Sprintf("breakpoints.%d", i)
		var err error
		switch {
		case bp.URLRegex != "" && bp.Location != "":
			err = fmt.Errorf("%w: location and urlRegex exclude each other", ErrBadInput)
		case bp.URLRegex != "":
			err = checkPositions(bp.Line, bp.Column)
		default:
			_, _, _, err = splitLocation(bp.Location)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", field, err)
		}
	}
	for i, lp := range req.Logpoints {
		if _, _, _, err := splitLocation(lp.Location); err != nil {
			return fmt.Errorf("logpoints.%d: %w", i, err)
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

package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
)

// SuggestedBlackbox are the patterns worth blackboxing in most node programs: node's own code
// and installed dependencies.
var SuggestedBlackbox = []string{"^node:internal", "/node_modules/"}

// maxBlackbox caps the patterns of a session: V8 matches every script URL against each.
const maxBlackbox = 100

// AddBlackbox adds URL patterns (JavaScript regexes) whose scripts stepping skips and returns
// the whole list; V8 gets the whole list each time (Debugger.setBlackboxPatterns).
func (ct Control) AddBlackbox(ctx context.Context, patterns []string) ([]string, error) {
	ct.t.s.mu.Lock()
	list := slices.Clone(ct.t.s.blackbox)
	ct.t.s.mu.Unlock()
	for _, p := range patterns {
		if !slices.Contains(list, p) {
			list = append(list, p)
		}
	}
	if len(list) > maxBlackbox {
		return nil, fmt.Errorf("%w: %d patterns, at most %d", ErrBadInput, len(list), maxBlackbox)
	}
	return ct.setBlackbox(ctx, list)
}

// ClearBlackbox removes every pattern.
func (ct Control) ClearBlackbox(ctx context.Context) ([]string, error) {
	return ct.setBlackbox(ctx, []string{})
}

// Blackbox lists the patterns in force.
func (us Settings) Blackbox() ([]string, error) {
	if err := us.s.debugOnly(); err != nil {
		return nil, err
	}
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	return append([]string{}, us.s.blackbox...), nil
}

func (ct Control) setBlackbox(ctx context.Context, list []string) ([]string, error) {
	c, err := ct.t.liveClient()
	if err != nil {
		return nil, err
	}
	if err := proto.Do(ctx, c, proto.DebuggerSetBlackboxPatterns{Patterns: ct.t.s.Settings().v8Blackbox(list)}, nil); err != nil {
		if isProtocolError(err) { // V8 refuses a pattern that is not a valid regex
			return nil, fmt.Errorf("%w: blackbox patterns: %v", ErrBadInput, err)
		}
		return nil, fmt.Errorf("blackbox: %w", err)
	}
	ct.t.s.mu.Lock()
	ct.t.s.blackbox = list
	ct.t.s.mu.Unlock()
	ct.t.toEveryTarget(ctx, proto.DebuggerSetBlackboxPatterns{Patterns: ct.t.s.Settings().v8Blackbox(list)})
	return append([]string{}, list...), nil
}

// isProtocolError reports whether V8 refused a call (as opposed to the connection failing).
func isProtocolError(err error) bool {
	var pe *cdp.Error
	return errors.As(err, &pe)
}

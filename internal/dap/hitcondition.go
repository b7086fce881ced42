package dap

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"traced/internal/engine/bpspec"
)

// hitConditionRE reads a hit condition as VS Code's JavaScript debugger (js-debug) does: an
// optional operator, then a count. Spaces around either are allowed here too.
var hitConditionRE = regexp.MustCompile(`^\s*(>=|<=|={1,3}|>|<|%)?\s*(\d+)\s*$`)

// hitCondition is a parsed hitCondition: the program pauses at a hit whose 1-based count n
// satisfies "n op count" (for %: n is a multiple of count). A bare count means ==, exactly
// the count-th hit, as in js-debug. Only hits where the breakpoint's condition holds count.
type hitCondition struct {
	op    string // ==, >, >=, <, <=, %
	count int
}

// parseHitCondition reads a hitCondition; ok is false for an empty one (every hit pauses).
func parseHitCondition(s string) (h hitCondition, ok bool, err error) {
	if strings.TrimSpace(s) == "" {
		return hitCondition{}, false, nil
	}
	m := hitConditionRE.FindStringSubmatch(s)
	if m == nil {
		return hitCondition{}, false, fmt.Errorf("hit condition %q: give a count with an optional operator: 5, ==5, >5, >=5, <5, <=5 or %%5 (every 5th)", s)
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n > 1<<31-1 {
		return hitCondition{}, false, fmt.Errorf("hit condition %q: the count is too large", s)
	}
	op := m[1]
	if op == "" || op[0] == '=' {
		op = "=="
	}
	if op == "%" && n == 0 {
		return hitCondition{}, false, fmt.Errorf("hit condition %q: every 0th hit is none; give %%1 or more", s)
	}
	return hitCondition{op: op, count: n}, true, nil
}

// withHitCondition composes a breakpoint's condition with its hitCondition. The exact form
// (N, ==N) becomes traced's own hitCount, which every client shows as "on hit N"; the others
// join the condition as a counter, after it, so that only hits where it holds count. key names
// the counter: one per breakpoint set, so a breakpoint set anew counts from 1.
func withHitCondition(cond, hitCond, key string) (condition string, hitCount int, err error) {
	h, ok, err := parseHitCondition(hitCond)
	if err != nil || !ok {
		return cond, 0, err
	}
	if h.op == "==" && h.count > 0 {
		return cond, h.count, nil
	}
	return bpspec.And(cond, bpspec.HitExpr(key, h.op, h.count)), 0, nil
}

// logCondition is a logpoint's condition with its hitCondition, which is always a counter: a
// logpoint has no hitCount of traced's.
func logCondition(cond, hitCond, key string) (string, error) {
	h, ok, err := parseHitCondition(hitCond)
	if err != nil || !ok {
		return cond, err
	}
	return bpspec.And(cond, bpspec.HitExpr(key, h.op, h.count)), nil
}

// hitKey names a new hit counter: this connection's nonce (several clients may count in one
// program) and a number of its own.
func (s *Server) hitKey() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.hitKeys++
	return fmt.Sprintf("dap-%s-%d", s.nonce, s.st.hitKeys)
}

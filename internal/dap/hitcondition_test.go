package dap

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"traced/internal/engine/bpspec"
)

func TestParseHitCondition(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in    string
		op    string
		count int
		fail  bool
	}{
		{"", "", 0, false},
		{"3", "==", 3, false},
		{" 3 ", "==", 3, false},
		{"=3", "==", 3, false},
		{"==3", "==", 3, false},
		{"===3", "==", 3, false},
		{">3", ">", 3, false},
		{">= 4", ">=", 4, false},
		{"<3", "<", 3, false},
		{"<=3", "<=", 3, false},
		{"%2", "%", 2, false},
		{"% 2", "%", 2, false},
		{"%0", "", 0, true},
		{"!=3", "", 0, true},
		{"3x", "", 0, true},
		{"> -1", "", 0, true},
		{"99999999999", "", 0, true},
	} {
		h, ok, err := parseHitCondition(c.in)
		if (err != nil) != c.fail || h.op != c.op || h.count != c.count || ok != (c.op != "") {
			t.Errorf("parseHitCondition(%q) = %+v, %v, %v; want %s %d, failing %v", c.in, h, ok, err, c.op, c.count, c.fail)
		}
	}
}

func TestWithHitCondition(t *testing.T) {
	t.Parallel()
	// The exact forms are traced's hitCount; the user's condition stays as it is.
	if cond, n, err := withHitCondition("i > 1", "==3", "k"); err != nil || cond != "i > 1" || n != 3 {
		t.Errorf(`withHitCondition("i > 1", "==3") = %q, %d, %v`, cond, n, err)
	}
	// The others join the condition, after it: only hits where it holds count.
	cond, n, err := withHitCondition("i > 1", "%2", "k")
	if err != nil || n != 0 || !strings.HasPrefix(cond, "(i > 1) && ((globalThis.__tracedHits") || !strings.Contains(cond, `["k"]`) {
		t.Errorf(`withHitCondition("i > 1", "%%2") = %q, %d, %v`, cond, n, err)
	}
	if cond, n, err := withHitCondition("", "", "k"); err != nil || cond != "" || n != 0 {
		t.Errorf(`withHitCondition("", "") = %q, %d, %v`, cond, n, err)
	}
	if _, _, err := withHitCondition("", "every other", "k"); err == nil {
		t.Error("a hit condition that is none of the forms is refused")
	}
	// A logpoint counts even the exact form itself.
	if cond, err := logCondition("", "2", "k"); err != nil || !strings.HasSuffix(cond, "=== 2") {
		t.Errorf(`logCondition("", "2") = %q, %v`, cond, err)
	}
}

// TestHitConditionCounts runs each counter expression in node, as V8 evaluates a breakpoint's
// condition at each hit, and checks at which of ten hits it pauses; a user condition that holds
// every other time makes only those hits count.
func TestHitConditionCounts(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	cases := []struct {
		cond, hit string
		want      []int
	}{
		{"", "3", []int{3}},
		{"", "==3", []int{3}},
		{"", ">3", []int{4, 5, 6, 7, 8, 9, 10}},
		{"", ">=9", []int{9, 10}},
		{"", "<3", []int{1, 2}},
		{"", "<=2", []int{1, 2}},
		{"", "%3", []int{3, 6, 9}},
		{"", "%1", []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"i % 2 === 0", "%2", []int{4, 8}},   // the 2nd and 4th of the hits 2, 4, 6, 8, 10
		{"i % 2 === 0", ">=4", []int{8, 10}}, // from the 4th of those on
	}
	// Each case counts under its own key, in one program, as one breakpoint each.
	var exprs []string
	for i, c := range cases {
		h, ok, err := parseHitCondition(c.hit)
		if err != nil || !ok {
			t.Fatalf("parseHitCondition(%q): %v", c.hit, err)
		}
		exprs = append(exprs, bpspec.And(c.cond, bpspec.HitExpr("case-"+string(rune('a'+i)), h.op, h.count)))
	}
	src, _ := json.Marshal(exprs)
	script := `const exprs = ` + string(src) + `;
const paused = exprs.map(() => []);
for (let i = 1; i <= 10; i++) exprs.forEach((e, j) => { if (eval(e)) paused[j].push(i); });
console.log(JSON.stringify(paused));`
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "-e", script).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][]int
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("node printed %q: %v", out, err)
	}
	for i, c := range cases {
		if !slices.Equal(got[i], c.want) {
			t.Errorf("condition %q, hit condition %q: paused at hits %v, want %v", c.cond, c.hit, got[i], c.want)
		}
	}
}

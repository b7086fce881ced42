package tests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"traced/api"
	"traced/internal/service"
)

// TestRedaction: a key, a password in a URL and a secret-named local read <redacted:KIND> in
// events, throw locals, evidence, the state and eval; an ordinary count does not; the summary
// counts them; the program's own output is unchanged; with redaction off they show.
func TestRedaction(t *testing.T) {
	t.Parallel()
	const key = "AKIAIOSFODNN7EXAMPLE"
	root := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "secrets.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "secrets.js"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(o *service.Options) { o.Engine.Root = root })
	s := h.debug(api.StartRequest{Target: "secrets.js", Args: []string{"out.txt"}})
	st, _ := h.waitPaused(s.ID, 0)
	for _, v := range st.Locals {
		if strings.Contains(v.Value, "hunter2") {
			t.Fatalf("state local %s = %q shows the password", v.Name, v.Value)
		}
	}
	var ev api.EvalResult
	h.call("POST", "/api/debug/"+s.ID+"/eval", api.EvalRequest{Expression: "dbPassword"}, &ev)
	if strings.Contains(ev.Value, "hunter2") || strings.Contains(ev.Value, key) || !strings.Contains(ev.Value, "<redacted:") {
		t.Fatalf("eval %q shows a secret", ev.Value)
	}
	h.exec(s.ID, "continue", api.ContinueRequest{})
	sum := h.waitExit(s.ID)
	var text string
	for _, e := range h.trace(s.ID, "").Events {
		text += string(e.Kind) + " "
		switch {
		case e.Console != nil:
			text += e.Console.Text.Value
		case e.Output != nil:
			text += e.Output.Text.Value
		case e.Throw != nil:
			text += e.Throw.Message.Value
			for _, v := range e.Throw.Locals {
				text += " " + v.Name + "=" + v.Value
			}
		}
		text += "\n"
	}
	if strings.Contains(text, key) || strings.Contains(text, "hunter2") || !strings.Contains(text, "<redacted:aws-key>") || !strings.Contains(text, "4096") {
		t.Fatalf("events show a secret, or lost the ordinary count:\n%s", text)
	}
	if sum.Redacted == 0 {
		t.Fatalf("summary %+v, want a redacted count", sum)
	}
	if out, err := os.ReadFile(filepath.Join(root, "out.txt")); err != nil || string(out) != key {
		t.Fatalf("the program's own file %q (%v), want the key it wrote unchanged", out, err)
	}

	off := newHarness(t, func(o *service.Options) { o.Engine.Root, o.Engine.RedactOff = root, true })
	s2 := off.start(api.StartRequest{Target: "secrets.js"})
	off.waitExit(s2.ID)
	if !strings.Contains(off.printed(s2.ID), key) {
		t.Fatalf("with redaction off the key should show:\n%s", off.printed(s2.ID))
	}
}

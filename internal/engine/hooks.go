package engine

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"traced/internal/cdp/proto"
)

// Hook is a function injected into the program (Runtime.addBinding): each call
// globalThis[name](payload) becomes a hook event.
type Hook struct {
	Name  string
	Calls int // times the program called it
}

// maxHooks caps the hooks of a session: each is a global the program can see.
const maxHooks = 32

// hookNameRE is a JavaScript identifier, short enough to read in an event.
var hookNameRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]{0,63}$`)

// AddHook injects a hook; adding one that exists is a no-op. It returns every hook.
func (t *Target) AddHook(ctx context.Context, name string) ([]Hook, error) {
	c, err := t.liveClient()
	if err != nil {
		return nil, err
	}
	if !hookNameRE.MatchString(name) || strings.HasPrefix(name, "__traced") {
		return nil, fmt.Errorf("%w: hook name %q is not a JavaScript identifier of ours to take", ErrBadInput, name)
	}
	t.s.mu.Lock()
	exists := false
	for _, h := range t.s.hooks {
		exists = exists || h.Name == name
	}
	n := len(t.s.hooks)
	t.s.mu.Unlock()
	if !exists {
		if n >= maxHooks {
			return nil, fmt.Errorf("%w: %d hooks already, at most %d", ErrBadInput, n, maxHooks)
		}
		if err := proto.Do(ctx, c, proto.RuntimeAddBinding{Name: name}, nil); err != nil {
			return nil, fmt.Errorf("add hook %s: %w", name, err)
		}
		t.s.mu.Lock()
		t.s.hooks = append(t.s.hooks, &Hook{Name: name})
		t.s.mu.Unlock()
		t.toEveryTarget(ctx, proto.RuntimeAddBinding{Name: name})
	}
	return t.s.Settings().Hooks()
}

// Hooks lists the injected hooks with their call counts.
func (us Settings) Hooks() ([]Hook, error) {
	if err := us.s.debugOnly(); err != nil {
		return nil, err
	}
	us.s.mu.Lock()
	defer us.s.mu.Unlock()
	out := make([]Hook, 0, len(us.s.hooks))
	for _, h := range us.s.hooks {
		out = append(out, *h)
	}
	return out, nil
}

// onHook records one call of a hook (Runtime.bindingCalled); a binding that is not a hook of
// this session is ignored. It runs on the dispatcher.
func (t *Target) onHook(name, payload string) {
	t.s.mu.Lock()
	var hook *Hook
	for _, h := range t.s.hooks {
		if h.Name == name {
			hook = h
		}
	}
	if hook != nil {
		hook.Calls++
	}
	t.s.mu.Unlock()
	if hook == nil {
		return
	}
	t.record(Event{Kind: KindHook, Hook: &HookInfo{Name: name, Payload: CapText(payload, t.s.stringCap)}})
}

package sourcemap

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
)

// TestFixtures loads each tests/testdata/ts fixture and checks the THROW line of service.ts
// maps both ways.
func TestFixtures(t *testing.T) {
	dir, _ := filepath.Abs("../../tests/testdata/ts")
	svc := filepath.Join(dir, "src/service.ts")
	for _, tc := range []struct{ script, mapURL string }{
		{"dist/service.js", "service.js.map"},
		{"bundle/app.js", "app.js.map"},
		{"esm/app.mjs", "app.mjs.map"},
	} {
		t.Run(tc.script, func(t *testing.T) {
			m, err := Load(context.Background(), "file://"+filepath.Join(dir, tc.script), tc.mapURL)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(m.Sources(), svc) {
				t.Fatalf("sources %v lack %s", m.Sources(), svc)
			}
			gens := m.Reverse(svc, 9)
			if len(gens) == 0 {
				t.Fatalf("no generated code for service.ts:9; nearest %v", m.NearestMapped(svc, 9))
			}
			o, ok := m.Forward(gens[0])
			if !ok || o.Source != svc || o.Line != 9 {
				t.Fatalf("Forward(%v) = %+v, %v", gens[0], o, ok)
			}
		})
	}
	_, err := Load(context.Background(), filepath.Join(dir, "missing/app.js"), "gone.js.map")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing map: %v", err)
	}
	_, err = Load(context.Background(), filepath.Join(dir, "corrupt/app.js"), "app.js.map")
	if !errors.Is(err, ErrInvalid) {
		t.Errorf("corrupt map: %v", err)
	}
}

// TestFixturesRoundTrip: every reverse index entry maps forward to its own original line, and
// each generated position the library maps is found again by Reverse.
func TestFixturesRoundTrip(t *testing.T) {
	dir, _ := filepath.Abs("../../tests/testdata/ts")
	for _, tc := range []struct{ script, mapURL string }{
		{"dist/app.js", "app.js.map"}, {"dist/service.js", "service.js.map"},
		{"bundle/app.js", "app.js.map"}, {"esm/app.mjs", "app.mjs.map"},
	} {
		m, err := Load(context.Background(), "file://"+filepath.Join(dir, tc.script), tc.mapURL)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range m.rev {
			gen := FromCDP(int(e.genLine), int(e.genCol))
			o, ok := m.Forward(gen)
			if !ok {
				t.Fatalf("%s: Forward(%v) found nothing", tc.script, gen)
			}
			if !slices.Contains(m.Reverse(o.Source, o.Line), gen) {
				t.Errorf("%s: Reverse(%s:%d) lacks %v", tc.script, o.Source, o.Line, gen)
			}
		}
	}
}

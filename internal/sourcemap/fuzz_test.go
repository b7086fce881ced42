package sourcemap

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fuzzMapURL is where FuzzReverseIndex's maps claim to be.
const fuzzMapURL = "file:///app/dist/app.js.map"

// fuzzSources are the sources of the maps FuzzReverseIndex builds, with the names a Map gives
// them under fuzzMapURL: relative, parent-relative, absolute, another scheme, and a second
// spelling of the first.
var fuzzSources = []struct{ raw, public string }{
	{"a.ts", "/app/dist/a.ts"},
	{"../src/b.ts", "/app/src/b.ts"},
	{"/abs/c.ts", "/abs/c.ts"},
	{"webpack:///d.ts", "webpack:///d.ts"},
	{"./a.ts", "/app/dist/a.ts"},
}

// FuzzReverseIndex checks the reverse index against go-sourcemap's forward lookups. Each input is
// raw bytes for Parse, and a mappings string that is built into a valid map (plain, or two
// sections of it, the second at a fuzzed offset) over the first nSources of fuzzSources.
func FuzzReverseIndex(f *testing.F) {
	paths, err := filepath.Glob("../../tests/testdata/ts/*/*.map")
	if err != nil || len(paths) == 0 {
		f.Fatalf("no fixture maps: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		var raw struct {
			Sources  []string
			Mappings string
		}
		_ = json.Unmarshal(data, &raw) // the corrupt fixture has neither, and is a seed all the same
		n := uint8(max(len(raw.Sources), 1) - 1)
		f.Add(data, raw.Mappings, n, false, int32(0), int32(0))
		f.Add([]byte(nil), raw.Mappings, n, true, int32(2), int32(7))
	}
	for _, s := range []string{
		"AAAA,CACA",        // the forms test's map
		"AAAA,AACA",        // two segments at one generated position
		"A,AACA;AAAA",      // a segment shadowed by one that maps to nothing
		"EAAA,DACA",        // out of generated order
		"AAAAA;ACAAC,CAAA", // names, lines, sources
		"AA+/////DA",       // the last original line a 32-bit line number holds
		"+/////DAAA;AAAA",  // the last generated column
	} {
		f.Add([]byte(nil), s, uint8(1), false, int32(0), int32(0))
		f.Add([]byte(nil), s, uint8(1), true, int32(0), int32(1))
	}
	f.Add([]byte(nil), "AAAA;AACA", uint8(1), true, int32(1<<31-1), int32(1<<31-1)) // a section at the end
	f.Fuzz(func(t *testing.T, data []byte, mappings string, nSources uint8, sectioned bool, line0, col0 int32) {
		if m, err := Parse(fuzzMapURL, data); err == nil {
			checkIndex(t, m)
		} else if !errors.Is(err, ErrInvalid) {
			t.Fatalf("Parse(data): %v does not wrap ErrInvalid", err)
		}

		n := int(nSources)%len(fuzzSources) + 1
		var segs []segment
		_, derr := decodeMappings(mappings, n, func(s segment) { segs = append(segs, s) })
		parts := []Pos{{0, 0}} // section offsets, 0-based
		if sectioned {
			parts = append(parts, Pos{int(line0), int(col0)})
		}
		m, err := Parse(fuzzMapURL, fuzzMap(mappings, n, parts))
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse: %v does not wrap ErrInvalid", err)
			}
			if derr == nil && (sectioned && line0 >= 0 && col0 >= 0 || !sectioned && mappings != "") {
				t.Fatalf("mappings decode, but Parse fails: %v", err)
			}
			return
		}
		if derr != nil {
			t.Fatalf("Parse accepts mappings that do not decode: %v", derr)
		}
		checkIndex(t, m)
		for i, off := range parts {
			end := Pos{noEnd, 0}
			if i+1 < len(parts) {
				end = parts[i+1]
			}
			checkSegments(t, m, segs, off, end)
		}
	})
}

// fuzzMap is a map of mappings over the first n fuzzSources: plain for one offset, else one
// section of it at each offset.
func fuzzMap(mappings string, n int, offsets []Pos) []byte {
	var sources []string
	for _, s := range fuzzSources[:n] {
		sources = append(sources, s.raw)
	}
	plain := map[string]any{"version": 3, "sources": sources, "names": []string{"x"}, "mappings": mappings}
	if len(offsets) == 1 {
		b, _ := json.Marshal(plain)
		return b
	}
	var sections []any
	for _, o := range offsets {
		sections = append(sections, map[string]any{"offset": map[string]int{"line": o.Line, "column": o.Column}, "map": plain})
	}
	b, _ := json.Marshal(map[string]any{"version": 3, "sections": sections})
	return b
}

// checkIndex checks what the index says on its own: every position Reverse gives for a line maps
// forward to that line, and NearestMapped and MappedLines name lines that Reverse has.
func checkIndex(t *testing.T, m *Map) {
	t.Helper()
	for _, src := range m.Sources() {
		lines := m.MappedLines(src)
		for _, l := range lines {
			gens := m.Reverse(src, l)
			if len(gens) == 0 {
				t.Fatalf("%s:%d is a mapped line, but Reverse has nothing", src, l)
			}
			for _, g := range gens {
				if o, ok := m.Forward(g); !ok || o.Source != src || o.Line != l {
					t.Fatalf("Reverse(%s:%d) has %v, which maps forward to %s:%v, %v", src, l, g, o.Source, o.Pos, ok)
				}
			}
			if !slices.IsSortedFunc(gens, comparePos) || len(slices.Compact(slices.Clone(gens))) != len(gens) {
				t.Fatalf("Reverse(%s:%d) = %v, not sorted and unique", src, l, gens)
			}
		}
		probe := []int{-1, 0, 1, 2}
		for _, l := range lines {
			probe = append(probe, l-1, l, l+1)
		}
		for _, l := range probe {
			near := m.NearestMapped(src, l)
			for _, n := range near {
				if !slices.Contains(lines, n) {
					t.Fatalf("NearestMapped(%s:%d) = %v; %d has no mapping", src, l, near, n)
				}
			}
			if slices.Contains(lines, l) != slices.Equal(near, []int{l}) {
				t.Fatalf("NearestMapped(%s:%d) = %v, mapped lines %v", src, l, near, lines)
			}
			if len(lines) > 0 && len(near) == 0 {
				t.Fatalf("NearestMapped(%s:%d) is empty, but the source has mapped lines", src, l)
			}
		}
	}
}

// checkSegments checks the decoded segments of the section at off (ending at end) against the
// map: each segment that go-sourcemap answers for maps forward to its own original position,
// and Reverse finds it again. A segment it does not answer for is one at the same generated
// position as the segment before it (the library finds the first), or one under a later section.
func checkSegments(t *testing.T, m *Map, segs []segment, off, end Pos) {
	t.Helper()
	for i := 1; i < len(segs); i++ {
		if a, b := segs[i-1], segs[i]; a.genLine == b.genLine && a.genCol > b.genCol {
			// Out of generated order: the library's binary search answers for some segments
			// and not others, and the index only has to agree with it (checkIndex).
			return
		}
	}
	for i, s := range segs {
		line := int64(s.genLine) + int64(off.Line)
		col := int64(s.genCol)
		if s.genLine == 0 {
			col += int64(off.Column)
		}
		if line > maxPos || col > maxPos {
			continue // past what a Pos can name
		}
		if line > int64(end.Line) || line == int64(end.Line) && col >= int64(end.Column) {
			continue
		}
		gen := FromCDP(int(line), int(col))
		o, ok := m.Forward(gen)
		if !ok {
			t.Fatalf("segment %d (%+v) at %v: Forward finds nothing", i, s, gen)
		}
		if s.src < 0 || i > 0 && segs[i-1].genLine == s.genLine && segs[i-1].genCol == s.genCol {
			continue
		}
		want := Original{Source: fuzzSources[s.src].public, Pos: FromCDP(int(s.line), int(s.col))}
		if o.Source != want.Source || o.Pos != want.Pos {
			t.Fatalf("segment %d (%+v) at %v: Forward = %s:%v, want %s:%v", i, s, gen, o.Source, o.Pos, want.Source, want.Pos)
		}
		if !slices.Contains(m.Reverse(want.Source, want.Line), gen) {
			t.Fatalf("segment %d (%+v): Reverse(%s:%d) = %v, lacks %v", i, s, want.Source, want.Line, m.Reverse(want.Source, want.Line), gen)
		}
	}
}

func comparePos(a, b Pos) int {
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Column - b.Column
}

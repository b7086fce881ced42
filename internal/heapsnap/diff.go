package heapsnap

import (
	"cmp"
	"slices"
)

// ClassDelta is how one constructor changed between two snapshots.
type ClassDelta struct {
	Name       string `json:"name"`
	CountDelta int    `json:"countDelta"`
	SizeDelta  int64  `json:"sizeDelta"`
	Count      int    `json:"count"` // in the later snapshot
	Size       int64  `json:"size"`
}

// Diff answers a diff of two snapshots: the constructors that changed most in size first.
type Diff struct {
	From      string       `json:"from"`
	To        string       `json:"to"`
	SizeDelta int64        `json:"sizeDelta"`
	Classes   []ClassDelta `json:"classes"`
}

// Compare compares the summaries a (of the snapshot named from) and b (named to) by
// constructor, sorted by size impact, the top ones.
func Compare(from string, a *Summary, to string, b *Summary, top int) Diff {
	deltas := map[string]*ClassDelta{}
	get := func(name string) *ClassDelta {
		d := deltas[name]
		if d == nil {
			d = &ClassDelta{Name: name}
			deltas[name] = d
		}
		return d
	}
	for _, c := range a.Classes {
		d := get(c.Name)
		d.CountDelta -= c.Count
		d.SizeDelta -= c.SelfSize
	}
	for _, c := range b.Classes {
		d := get(c.Name)
		d.CountDelta += c.Count
		d.SizeDelta += c.SelfSize
		d.Count, d.Size = c.Count, c.SelfSize
	}
	out := Diff{From: from, To: to, SizeDelta: b.TotalSize - a.TotalSize, Classes: []ClassDelta{}}
	for _, d := range deltas {
		if d.CountDelta != 0 || d.SizeDelta != 0 {
			out.Classes = append(out.Classes, *d)
		}
	}
	abs := func(n int64) int64 { return max(n, -n) }
	slices.SortFunc(out.Classes, func(x, y ClassDelta) int {
		return cmp.Or(cmp.Compare(abs(y.SizeDelta), abs(x.SizeDelta)), cmp.Compare(y.CountDelta, x.CountDelta), cmp.Compare(x.Name, y.Name))
	})
	out.Classes = out.Classes[:min(top, len(out.Classes))]
	return out
}

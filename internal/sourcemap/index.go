package sourcemap

import (
	"cmp"
	"slices"
)

// indexer collects reverse index entries in generated order and sorts them into the index.
type indexer struct {
	rev []revEntry
	// unordered: some part's segments go back within a generated line, which the format allows
	// but go-sourcemap's lookups do not.
	unordered bool
}

func (ix *indexer) add(e revEntry) { ix.rev = append(ix.rev, e) }

// maxCountingKeys bounds the counting sort's table, in keys a collected entry: past it (a map
// whose few mappings name very large original lines) the table would cost more than it saves.
const maxCountingKeys = 2

// sorted returns the collected entries sorted by (src, line, genLine, genCol), each once.
// nSources bounds the entries' src.
//
// The entries arrive in generated order, so a stable counting sort on (src, line) alone leaves
// each line's run ordered by generated position. That is linear, where a comparison sort of a
// large map's million entries was most of its load time. Maps whose segments are out of
// generated order, or whose lines are too sparse for the table, take the comparison sort.
func (ix *indexer) sorted(nSources int) []revEntry {
	rev := ix.rev
	ix.rev = nil
	// first[s] is the key of source s's line 0; source s's line l has key first[s]+l.
	first := make([]int, nSources+1)
	for i := range nSources {
		first[i+1] = -1 // the highest line seen, for now
	}
	ordered := true
	for i, e := range rev {
		first[e.src+1] = max(first[e.src+1], int(e.line))
		if i > 0 && genBefore(e, rev[i-1]) {
			ordered = false
		}
	}
	for i := range nSources {
		first[i+1] += first[i] + 1
	}
	keys := first[nSources]
	if !ordered || keys > maxCountingKeys*len(rev)+1024 || len(rev) >= 1<<31-1 {
		slices.SortFunc(rev, compareRev)
		return slices.Compact(rev)
	}
	// start[k] is where key k's run begins in out, then where its next entry goes.
	start := make([]int32, keys+1)
	for _, e := range rev {
		start[first[e.src]+int(e.line)+1]++
	}
	for k := 1; k <= keys; k++ {
		start[k] += start[k-1]
	}
	out := make([]revEntry, len(rev))
	for _, e := range rev {
		k := first[e.src] + int(e.line)
		out[start[k]] = e
		start[k]++
	}
	return slices.Compact(out)
}

// genBefore reports whether a's generated position is before b's.
func genBefore(a, b revEntry) bool {
	return a.genLine < b.genLine || (a.genLine == b.genLine && a.genCol < b.genCol)
}

func compareRev(a, b revEntry) int {
	if c := cmp.Compare(a.src, b.src); c != 0 {
		return c
	}
	if c := cmp.Compare(a.line, b.line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.genLine, b.genLine); c != 0 {
		return c
	}
	return cmp.Compare(a.genCol, b.genCol)
}

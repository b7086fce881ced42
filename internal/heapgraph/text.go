package heapgraph

import (
	"fmt"
	"strings"
)

// maxPathText bounds one rendered path in a text answer: its start (the root side) and its
// end (the holder and the object) say the most, so the middle is cut.
const maxPathText = 360

// Text renders the leak report in at most limit bytes (limit <= 0: no limit), the largest
// clusters first:
//
//	1,200 objects born after @84211 still held, 38.1 MB retained; 1 cluster:
//	1. 1,000 × Leaky, 32.9 MB retained (@90001 @90011 …)
//	   global.store → Map[entry] → Leaky
//	   accumulates in: global.store → Map[entry] (@50621)
func (l Leaks) Text(limit int) string {
	head := fmt.Sprintf("%s objects born after @%d still held, %s retained", count(l.Objects), l.Watermark, bytesText(l.RetainedSize))
	if len(l.Clusters) == 0 {
		return head + ".\n"
	}
	noun := "clusters"
	if len(l.Clusters) == 1 {
		noun = "cluster"
	}
	return bounded(head+fmt.Sprintf("; %d %s:\n", len(l.Clusters), noun), clusterTexts(l.Clusters), limit)
}

// Text renders the instances in at most limit bytes.
func (in Instances) Text(limit int) string {
	head := fmt.Sprintf("%s × %s, %s self, %s retained", count(in.Count), in.Class, bytesText(in.SelfSize), bytesText(in.RetainedSize))
	if in.Count == 0 {
		return head + ".\n"
	}
	parts := clusterTexts(in.Shapes)
	for _, o := range in.Objects {
		parts = append(parts, fmt.Sprintf("@%d %s, %s retained: %s\n", o.ID, o.Label, bytesText(o.RetainedSize), cut(o.Path)))
	}
	if in.Grouped == maxPathsWalked {
		head += fmt.Sprintf("; paths of the first %s", count(in.Grouped))
	}
	return bounded(head+"; held by:\n", parts, limit)
}

// HoldersText renders the largest holders in at most limit bytes.
func HoldersText(hs []Holder, limit int) string {
	parts := make([]string, 0, len(hs))
	for i, h := range hs {
		parts = append(parts, fmt.Sprintf("%d. @%d %s, %s retained (%s self)\n   %s\n", i+1, h.ID, h.Label, bytesText(h.RetainedSize), bytesText(uint64(h.SelfSize)), cut(h.Path)))
	}
	return bounded("Largest holders:\n", parts, limit)
}

func clusterTexts(cs []Cluster) []string {
	out := make([]string, 0, len(cs))
	for i, c := range cs {
		var b strings.Builder
		ids := ""
		for _, id := range c.IDs {
			ids += fmt.Sprintf(" @%d", id)
		}
		if c.Count > len(c.IDs) {
			ids += " …"
		}
		fmt.Fprintf(&b, "%d. %s × %s, %s retained (%s)\n   %s\n", i+1, count(c.Count), c.Label, bytesText(c.RetainedSize), strings.TrimSpace(ids), cut(c.Path))
		if c.Pinch != "" && c.Count > 1 {
			fmt.Fprintf(&b, "   accumulates in: %s (@%d)\n", lastHops(c.Pinch, c.Path), c.PinchID)
		}
		switch {
		case c.Shapes == 2:
			b.WriteString("   (and 1 other path into it)\n")
		case c.Shapes > 2:
			fmt.Fprintf(&b, "   (and %d other paths into it)\n", c.Shapes-1)
		}
		for i, s := range c.Allocated {
			lead := "   allocated in: "
			if i > 0 {
				lead = "              and "
			}
			fmt.Fprintf(&b, "%s%s %s:%d (%s sampled)\n", lead, s.Function, s.File, s.Line, bytesText(uint64(s.Bytes)))
		}
		out = append(out, b.String())
	}
	return out
}

// bounded joins head and as many whole parts as fit in limit bytes, saying how many it left.
func bounded(head string, parts []string, limit int) string {
	var b strings.Builder
	b.WriteString(head)
	for i, p := range parts {
		rest := len(parts) - i
		more := fmt.Sprintf("(%d more: ask for a larger top)\n", rest)
		if limit > 0 && b.Len()+len(p)+len(more) > limit {
			if b.Len()+len(more) <= limit {
				b.WriteString(more)
			}
			break
		}
		b.WriteString(p)
	}
	return b.String()
}

// pinchHops is how many hops of a pinch point a cluster shows when its path, just above, already
// spells the way there.
const pinchHops = 2

// lastHops is the end of a pinch point whose path is shown already: its last hops, which name
// the collection and the accessor into it.
func lastHops(pinch, path string) string {
	hops := strings.Split(pinch, " → ")
	if len(hops) <= pinchHops || !strings.HasPrefix(path, pinch) {
		return cut(pinch)
	}
	return "… → " + strings.Join(hops[len(hops)-pinchHops:], " → ")
}

// cut shortens a path past maxPathText bytes, keeping both ends.
func cut(s string) string {
	if len(s) <= maxPathText {
		return s
	}
	keep := (maxPathText - len(" … ")) / 2
	head, tail := s[:keep], s[len(s)-keep:]
	// Back off to rune boundaries.
	for len(head) > 0 && head[len(head)-1]&0xC0 == 0x80 {
		head = head[:len(head)-1]
	}
	if len(head) > 0 && head[len(head)-1] >= 0xC0 {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && tail[0]&0xC0 == 0x80 {
		tail = tail[1:]
	}
	return head + " … " + tail
}

func count(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Bytes renders a size for a person: 93.8 kB, 6.3 MB (the unit every heap answer uses).
func Bytes(n uint64) string { return bytesText(n) }

func bytesText(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// NodeText renders one object in at most limit bytes: what it is, what it holds, its
// shortest path from the roots and the edges that hold it.
func (g *Graph) NodeText(n uint32, scripts ScriptNamer, limit int) string {
	h := Holder{node: n}
	g.describe(&h, scripts)
	head := fmt.Sprintf("@%d %s, %s self, %s retained\n   %s\n", h.ID, h.Label, bytesText(uint64(h.SelfSize)), bytesText(h.RetainedSize), cut(h.Path))
	rs := g.Retainers(n, maxRetainersShown+1)
	parts := make([]string, 0, len(rs))
	for i, r := range rs {
		if i == maxRetainersShown {
			parts = append(parts, "   …\n")
			break
		}
		parts = append(parts, fmt.Sprintf("   held by @%d %s\n", g.nodeID[r.From], g.RetainerText(r, scripts)))
	}
	return bounded(head, parts, limit)
}

// maxRetainersShown bounds the retainers NodeText lists.
const maxRetainersShown = 10

// Text renders the summary's classes in at most limit bytes.
func (s Summary) Text(limit int) string {
	head := fmt.Sprintf("%s nodes, %s; by retained size:\n", count(s.Nodes), bytesText(s.TotalSize))
	parts := make([]string, 0, len(s.Classes))
	for _, c := range s.Classes {
		parts = append(parts, fmt.Sprintf("%10s retained %10s self %9s × %s\n", bytesText(c.RetainedSize), bytesText(c.SelfSize), count(c.Count), c.Name))
	}
	return bounded(head, parts, limit)
}

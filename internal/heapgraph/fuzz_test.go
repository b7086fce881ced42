package heapgraph

import (
	"strings"
	"testing"
)

// FuzzRead: whatever the bytes, Read answers a graph or an error, and the questions on a
// graph answer without a panic.
func FuzzRead(f *testing.F) {
	f.Add(diamond)
	f.Add(tinyHeader + `"nodes":[0,0,1,0,0],"edges":[],"strings":["a"]}`)
	f.Add(strings.Replace(strings.Replace(tinyHeader, "%d", "2", 1), "%d", "1", 1) +
		`"nodes":[2,0,1,0,1,1,1,3,8,0],"edges":[2,1,5],"locations":[5,1,2,3],"strings":["","x"]}`)
	defer func(n, e int) { maxNodes, maxEdges = n, e }(maxNodes, maxEdges)
	maxNodes, maxEdges = 1<<12, 1<<14 // the columns of a forged header stay small
	f.Fuzz(func(t *testing.T, text string) {
		g, err := Read(strings.NewReader(text))
		if err != nil {
			return
		}
		_ = g.Summary(5).Text(512)
		_ = HoldersText(g.Largest(3, nil), 512)
		_ = g.Leaks(0, 3, nil).Text(512)
		_ = g.Instances("x", 3, nil).Text(512)
		for n := range uint32(min(g.NodeCount(), 50)) {
			_ = g.NodeText(n, nil, 512)
		}
	})
}

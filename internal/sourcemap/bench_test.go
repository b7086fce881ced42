package sourcemap

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// bigMap builds a map of about size bytes of mappings: 20 sources, generated lines of 10
// segments, each segment two original columns on from the last.
func bigMap(size int) []byte { return bigMapContent(size, 0) }

// bigMapContent is bigMap with sourcesContent of about content bytes in all, as bundlers emit by
// default.
func bigMapContent(size, content int) []byte {
	var mappings []byte
	var src, line int32
	for len(mappings) < size {
		for k := 0; k < 10; k++ {
			if k > 0 {
				mappings = append(mappings, ',')
			}
			mappings = appendVLQ(mappings, 4)
			ds := int32(0)
			if k == 0 && line%50 == 0 {
				ds = (src+1)%20 - src
			}
			src += ds
			mappings = appendVLQ(mappings, ds)
			mappings = appendVLQ(mappings, 0)
			mappings = appendVLQ(mappings, 2)
		}
		mappings = append(mappings, ';')
		line++
	}
	sources := make([]string, 20)
	for i := range sources {
		sources[i] = fmt.Sprintf("src/file%d.ts", i)
	}
	m := map[string]any{"version": 3, "sources": sources, "names": []string{}, "mappings": string(mappings)}
	if content > 0 {
		text := strings.Repeat("export const x = \"some original source\";\n", content/len(sources)/40+1)
		contents := make([]string, len(sources))
		for i := range contents {
			contents[i] = text
		}
		m["sourcesContent"] = contents
	}
	b, _ := json.Marshal(m)
	return b
}

func BenchmarkLoad5MB(b *testing.B) {
	data := bigMap(5 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("file:///app/dist/app.js.map", data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad5MBContent is a 5 MB map of which half is sourcesContent.
func BenchmarkLoad5MBContent(b *testing.B) {
	data := bigMapContent(5<<20/2, 5<<20/2)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("file:///app/dist/app.js.map", data); err != nil {
			b.Fatal(err)
		}
	}
}

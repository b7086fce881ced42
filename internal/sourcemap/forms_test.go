package sourcemap

import (
	"context"
	"encoding/base64"
	"net/url"
	"slices"
	"testing"
)

// One generated line "ab" whose column 0 is a.ts:1:1 and column 1 is a.ts:2:1.
const plain = `{"version":3,"sources":["a.ts"],"sourcesContent":["x\ny\n"],"names":[],"mappings":"AAAA,CACA"}`

func TestForms(t *testing.T) {
	const script = "file:///p/dist/app.js"
	for _, tc := range []struct {
		name, mapURL, wantSrc string
		wantContent           bool
	}{
		{"base64", "data:application/json;charset=utf-8;base64," + base64.StdEncoding.EncodeToString([]byte(plain)), "/p/dist/a.ts", true},
		{"percent", "data:application/json," + url.PathEscape(plain), "/p/dist/a.ts", true},
		{"sourceRoot", "data:application/json," + url.PathEscape(`{"version":3,"sourceRoot":"../src","sources":["a.ts"],"mappings":"AAAA,CACA"}`), "/p/src/a.ts", false},
		{"sourceRootURL", "data:application/json," + url.PathEscape(`{"version":3,"sourceRoot":"webpack:///","sources":["a.ts"],"mappings":"AAAA,CACA"}`), "webpack:///a.ts", false},
		{"sections", "data:application/json," + url.PathEscape(`{"version":3,"sections":[{"offset":{"line":0,"column":0},"map":{"version":3,"sources":["b.ts"],"mappings":"AAAA"}},{"offset":{"line":0,"column":1},"map":{"version":3,"sources":["a.ts"],"mappings":"AACA"}}]}`), "/p/dist/a.ts", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Load(context.Background(), script, tc.mapURL)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(m.Sources(), tc.wantSrc) {
				t.Fatalf("sources %v lack %s", m.Sources(), tc.wantSrc)
			}
			o, ok := m.Forward(Pos{1, 2})
			if !ok || o.Source != tc.wantSrc || o.Line != 2 || o.Column != 1 {
				t.Fatalf("Forward(1:2) = %+v, %v", o, ok)
			}
			if got := m.Reverse(tc.wantSrc, 2); !slices.Equal(got, []Pos{{1, 2}}) {
				t.Fatalf("Reverse(2) = %v", got)
			}
			if _, ok := m.SourceContent(tc.wantSrc); ok != tc.wantContent {
				t.Fatalf("SourceContent ok = %v", ok)
			}
		})
	}
}

package engine

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestDecodeParamsAsEncodingJSON: notifications decode as encoding/json decoded them: lone
// surrogates and invalid UTF-8 replaced, an embedded struct's fields promoted, names matched
// without regard to case, a repeated name's last value kept, unknown fields left out.
func TestDecodeParamsAsEncodingJSON(t *testing.T) {
	for _, in := range []string{
		"{\"type\":\"log\",\"args\":[{\"type\":\"string\",\"value\":\"a\\ud800b\xffc\"}],\"unknown\":[1,{\"x\":2}]}",
		`{"type":"log","TYPE":"error","args":[{"type":"number","value":1.5,"description":"1.5"}]}`,
	} {
		var v1, v2 consoleAPICalled
		if err := json.Unmarshal([]byte(in), &v1); err != nil {
			t.Fatal(err)
		}
		if err := decodeParams([]byte(in), &v2); err != nil {
			t.Fatalf("decodeParams(%q): %v", in, err)
		}
		if !reflect.DeepEqual(v1, v2) {
			t.Fatalf("decodeParams(%q) = %+v, encoding/json %+v", in, v2, v1)
		}
	}
	in := `{"callFrames":[],"reason":"exception","data":{"type":"object","className":"TypeError","uncaught":true}}`
	var p debuggerPaused
	if err := decodeParams([]byte(in), &p); err != nil || p.Data == nil || p.Data.ClassName != "TypeError" || !p.Data.Uncaught {
		t.Fatalf("paused data %+v: %v", p.Data, err)
	}
}

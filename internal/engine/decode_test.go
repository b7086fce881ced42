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

// consoleCall is a console.log notification as node sends it from a module's top level: the
// whole stack, node's loader frames included.
const consoleCall = `{"type":"log","args":[{"type":"number","value":7,"description":"7"}],"executionContextId":1,"timestamp":1.7e12,` +
	`"stackTrace":{"callFrames":[` +
	`{"functionName":"","scriptId":"110","url":"file:///app/count.js","lineNumber":2,"columnNumber":10},` +
	`{"functionName":"Module._compile","scriptId":"65","url":"node:internal/modules/cjs/loader","lineNumber":1517,"columnNumber":13},` +
	`{"functionName":"Module._extensions..js","scriptId":"65","url":"node:internal/modules/cjs/loader","lineNumber":1622,"columnNumber":9},` +
	`{"functionName":"Module.load","scriptId":"65","url":"node:internal/modules/cjs/loader","lineNumber":1265,"columnNumber":31},` +
	`{"functionName":"Module._load","scriptId":"65","url":"node:internal/modules/cjs/loader","lineNumber":1090,"columnNumber":11},` +
	`{"functionName":"executeUserEntryPoint","scriptId":"98","url":"node:internal/modules/run_main","lineNumber":163,"columnNumber":11},` +
	`{"functionName":"","scriptId":"120","url":"node:internal/main/run_main_module","lineNumber":27,"columnNumber":48}]}}`

// TestConsoleTopFrame: a console call's stack decodes to its top frame alone, as encoding/json
// decodes that frame; null and an empty stack decode to none; a stack that is not an array fails.
func TestConsoleTopFrame(t *testing.T) {
	var whole struct {
		StackTrace stackTrace `json:"stackTrace"`
	}
	if err := json.Unmarshal([]byte(consoleCall), &whole); err != nil {
		t.Fatal(err)
	}
	var p consoleAPICalled
	if err := decodeParams([]byte(consoleCall), &p); err != nil {
		t.Fatal(err)
	}
	if p.StackTrace == nil || len(p.StackTrace.CallFrames) != 1 || p.StackTrace.CallFrames[0] != whole.StackTrace.CallFrames[0] || len(p.Args) != 1 {
		t.Fatalf("decoded %+v, want the top frame %+v and one argument", p, whole.StackTrace.CallFrames[0])
	}
	for in, want := range map[string]int{ // frames; -1: no stack
		`{"type":"log","stackTrace":{"callFrames":[]}}`:   0,
		`{"type":"log","stackTrace":{"callFrames":null}}`: 0,
		`{"type":"log","stackTrace":null}`:                -1,
	} {
		var p consoleAPICalled
		if err := decodeParams([]byte(in), &p); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		got := -1
		if p.StackTrace != nil {
			got = len(p.StackTrace.CallFrames)
		}
		if got != want {
			t.Fatalf("%s: %d frames, want %d", in, got, want)
		}
	}
	var bad consoleAPICalled
	if err := decodeParams([]byte(`{"type":"log","stackTrace":{"callFrames":{}}}`), &bad); err == nil {
		t.Fatal("call frames as an object decoded")
	}
}

// BenchmarkConsoleDecode: a console call with a 7-frame stack, its top frame kept ("top", what
// capture does) beside every frame decoded ("whole", what it did).
func BenchmarkConsoleDecode(b *testing.B) {
	b.Run("top", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p consoleAPICalled
			if err := decodeParams([]byte(consoleCall), &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p struct {
				Type       string         `json:"type"`
				Args       []remoteObject `json:"args"`
				StackTrace *stackTrace    `json:"stackTrace,omitempty"`
			}
			if err := decodeParams([]byte(consoleCall), &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

package mcpserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCheckedPOSTAnswerCap: an answer over MaxAnswerBytes is replaced by an error answer to
// each call of the request.
func TestCheckedPOSTAnswerCap(t *testing.T) {
	big := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := strings.Repeat("x", 1<<20)
		for range MaxAnswerBytes>>20 + 1 {
			w.Write([]byte(chunk))
		}
	})
	req := httptest.NewRequest("POST", "/mcp", strings.NewReader(`[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":"b","method":"tools/list"}]`))
	rec := httptest.NewRecorder()
	checkedPOST(big).ServeHTTP(rec, req)
	var answers []struct {
		ID    any
		Error struct {
			Code    int
			Message string
		}
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &answers); err != nil {
		t.Fatalf("%.200q: %v", rec.Body.String(), err)
	}
	if len(answers) != 2 || answers[1].ID != "b" || answers[0].Error.Code != -32603 || !strings.Contains(answers[0].Error.Message, "cap") {
		t.Errorf("answer over the cap: %+v", answers)
	}
}

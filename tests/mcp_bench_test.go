package tests

import (
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPOverhead measures what an MCP tool call over /mcp costs beyond the REST request it
// makes: the tool sessions (Streamable HTTP, the SDK's client) against GET /api/trace/list in
// the text form, side by side, medians. Run it without -race:
// `go test -run '^$' -bench MCPOverhead ./tests/`.
func BenchmarkMCPOverhead(b *testing.B) {
	addr := benchService(b)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	cs := connectHTTP(b, "http://"+addr)
	var tool, req []time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: "sessions", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			b.Fatalf("sessions: %v %+v", err, res)
		}
		tool = append(tool, time.Since(start))

		req = append(req, timeGet(b, client, "http://"+addr+"/api/trace/list?format=text"))
	}
	t, r := median(tool), median(req)
	b.ReportMetric(float64(t.Microseconds())/1000, "mcp-ms")
	b.ReportMetric(float64(r.Microseconds())/1000, "request-ms")
	b.ReportMetric(float64((t-r).Microseconds())/1000, "overhead-ms")
}

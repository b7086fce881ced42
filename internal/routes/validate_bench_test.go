package routes

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
)

// BenchmarkValidateRequest times the contract check of one eval request, side by side: the
// operation found by the path chi matched ("table", what validateRequest does) and by the
// contract's own router ("router", what it did before, and still does for a pattern the table
// lacks).
func BenchmarkValidateRequest(b *testing.B) {
	for _, side := range []string{"table", "router"} {
		b.Run(side, func(b *testing.B) {
			c, err := newContract()
			if err != nil {
				b.Fatal(err)
			}
			if side == "router" {
				c.routes = nil
			}
			a := &app{contract: c}
			r := chi.NewRouter()
			r.With(a.validateRequest).Post(debugRoutes+"/eval", func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(http.StatusNoContent)
			})
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/api/debug/s1/eval", strings.NewReader(`{"expression":"n + 1"}`))
				req.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				r.ServeHTTP(w, req)
				if w.Code != http.StatusNoContent {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}

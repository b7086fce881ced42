package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoService: the light entry links nothing of the service, whose package inits (the
// OpenAPI schema, the validator, the OTLP exporter's gRPC, the engine) would run before every
// client command (issue 25, point 16). go list reads the import graph as the build does.
func TestLinksNoService(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, heavy := range []string{"github.com/getkin/kin-openapi", "github.com/go-playground/validator",
			"github.com/santhosh-tekuri/jsonschema", "google.golang.org/grpc", "go.opentelemetry.io",
			"github.com/modelcontextprotocol", "traced/internal/engine", "traced/internal/routes",
			"traced/internal/service", "traced/internal/redact"} {
			if strings.HasPrefix(pkg, heavy) {
				t.Errorf("the light entry links %s", pkg)
			}
		}
	}
}

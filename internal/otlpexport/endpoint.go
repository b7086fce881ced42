package otlpexport

import (
	"fmt"
	"net/url"
	"os"
	"strings"
)

// tracesPath is where an OTLP/HTTP collector takes traces, under its base URL.
const tracesPath = "/v1/traces"

// tracesURL turns a collector's base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it, into the
// traces URL: /v1/traces is added unless the path already ends with it.
func tracesURL(base string) (string, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("otlp endpoint %q: %w", base, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("otlp endpoint %q: want http://host:port or https://host:port (a collector's OTLP/HTTP receiver, usually port 4318)", base)
	}
	if !strings.HasSuffix(u.Path, tracesPath) {
		u.Path = strings.TrimSuffix(u.Path, "/") + tracesPath
	}
	return u.String(), nil
}

// envEndpoint is the traces URL the SDK takes from the environment, for the status.
func envEndpoint() string {
	if u := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); u != "" {
		return redact(u)
	}
	if u, err := tracesURL(os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT")); err == nil {
		return redact(u)
	}
	return "http://localhost:4318" + tracesPath // the SDK's default
}

// redact drops credentials from a URL shown in the status.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	u.User = nil
	u.RawQuery = ""
	return u.String()
}

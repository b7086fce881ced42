package otlpexport

import (
	"fmt"
	"net/url"
	"os"
	"strings"
)

// tracesPath is where an OTLP/HTTP collector takes traces, under its base URL.
const tracesPath = "/v1/traces"

// defaultTracesURL is where the SDK sends traces when nothing names a collector.
const defaultTracesURL = "http://localhost:4318" + tracesPath

// tracesURL turns a collector's base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it, into the
// traces URL: /v1/traces is added unless the path already ends with it.
func tracesURL(base string) (string, error) {
	u, err := collectorURL("otlp endpoint", base)
	if err != nil {
		return "", err
	}
	if !strings.HasSuffix(u.Path, tracesPath) {
		u.Path = strings.TrimSuffix(u.Path, "/") + tracesPath
	}
	return u.String(), nil
}

// collectorURL parses an http(s) URL with a host, what an OTLP/HTTP receiver has; name says
// where it came from (the flag, a variable) in the error.
func collectorURL(name, s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", name, s, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s %q: want http://host:port or https://host:port (a collector's OTLP/HTTP receiver, usually port 4318)", name, s)
	}
	return u, nil
}

// endpointURL is the traces URL the export uses, checked the same way whichever names it:
// the endpoint flag (a base URL), else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (the traces URL as
// is), else OTEL_EXPORTER_OTLP_ENDPOINT (a base URL), else the SDK's default. The exporter
// is given this URL, so the SDK's own reading of the variables (which takes any scheme as
// https) never decides where spans go, and the status names where they really go.
func endpointURL(flag string) (string, error) {
	if flag != "" {
		return tracesURL(flag)
	}
	if v := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); v != "" {
		u, err := collectorURL("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", v)
		if err != nil {
			return "", err
		}
		if u.Path == "" {
			u.Path = "/" // as the SDK does: the URL is used as is, with at least the root path
		}
		return u.String(), nil
	}
	if v := os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT"); v != "" {
		u, err := tracesURL(v)
		if err != nil {
			return "", fmt.Errorf("OTEL_EXPORTER_OTLP_ENDPOINT: %w", err)
		}
		return u, nil
	}
	return defaultTracesURL, nil
}

// CheckEndpoint refuses an export destination that is no OTLP/HTTP receiver, whether the
// endpoint flag or a variable names it: a command checks it before anything it cannot undo.
func CheckEndpoint(flag string) error {
	if !Enabled(flag) {
		return nil
	}
	_, err := endpointURL(flag)
	return err
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

package cli

import (
	"context"

	"traced/internal/apiclient"
)

// Discover finds the service the CLI's commands talk to, starting one on demand as `traced
// launch` does, for adapters that call the API themselves (traced dap): its address and token.
func Discover(env Env) (addr, token string, err error) {
	c := &call{cmd: &command{autostart: true}, env: env, opts: map[string][]string{}}
	err = c.with(func(ctx context.Context, api *apiclient.Client) error {
		_, err := api.Do(ctx, "GET", "/api/trace/status", nil, nil)
		return err
	})
	if err != nil {
		return "", "", err
	}
	return c.svc.addr, c.svc.token, nil
}

package cli

// Discover finds the service the CLI's commands talk to, starting one on demand as `traced
// launch` does, for adapters that call the API themselves (traced dap): its address and token.
func Discover(env Env) (addr, token string, err error) {
	c := &call{cmd: &command{autostart: true}, env: env, opts: map[string][]string{}}
	svc, err := c.service(false)
	if err != nil {
		return "", "", err
	}
	if _, err := svc.send("GET", "/api/trace/status", nil, nil); err != nil {
		if !isDialError(err) || svc.how == "--addr" {
			return "", "", unreachable(svc, err)
		}
		if svc, err = c.service(true); err != nil { // nothing answers there: start one
			return "", "", err
		}
	}
	return svc.addr, svc.token, nil
}

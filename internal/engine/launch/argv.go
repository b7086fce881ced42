package launch

import (
	"fmt"
	"strings"
)

// maxArgStrlen is Linux's MAX_ARG_STRLEN: execve refuses (E2BIG) one argument or environment
// string longer than this, its terminating NUL included.
const maxArgStrlen = 32 * 4096

// CheckArgv refuses what execve cannot take, naming the item as a start request does (args[1],
// env.NAME): a NUL byte (Go's exec answers EINVAL, naming nothing) or a string past the kernel's
// limit for one. Their sum past the kernel's total shows only at Spawn (syscall.E2BIG).
func CheckArgv(args []string, env map[string]string) error {
	for i, a := range args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("args[%d] contains a NUL byte, which no process argument can hold", i)
		}
		if len(a)+1 > maxArgStrlen {
			return fmt.Errorf("args[%d] is %d bytes, past the kernel's %d for one argument", i, len(a), maxArgStrlen-1)
		}
	}
	for k, v := range env {
		if strings.IndexByte(k, 0) >= 0 || strings.IndexByte(v, 0) >= 0 {
			return fmt.Errorf("env.%s contains a NUL byte, which no environment variable can hold", strings.ReplaceAll(k, "\x00", ""))
		}
		if n := len(k) + 1 + len(v) + 1; n > maxArgStrlen {
			return fmt.Errorf("env.%s is %d bytes as NAME=value, past the kernel's %d for one variable", k, n-1, maxArgStrlen-1)
		}
	}
	return nil
}

// ChildEnv is the service's environment without what could hijack or leak into the child, then
// the request's own variables. NODE_OPTIONS could --require code or move the inspector; the token
// is ours alone. A request may set NODE_OPTIONS itself.
func ChildEnv(base []string, extra map[string]string) []string {
	env := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if k == "NODE_OPTIONS" || k == "TRACED_TOKEN" {
			continue
		}
		if _, override := extra[k]; override {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range extra {
		env = append(env, k+"="+v)
	}
	return env
}

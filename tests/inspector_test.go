package tests

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"traced/api"
)

// TestInspectorStaysLocalAndUnlisted checks the child's inspector: bound to 127.0.0.1 only and its
// WebSocket id not published over HTTP (/json/list), even when traced's own environment tries to
// move it with NODE_OPTIONS.
func TestInspectorStaysLocalAndUnlisted(t *testing.T) {
	// Not parallel: its subtest sets NODE_OPTIONS (t.Setenv), with an inspector on the fixed port 9229.
	for _, nodeOptions := range []string{"", "--inspect=0.0.0.0:9229 --inspect-publish-uid=http"} {
		t.Run("NODE_OPTIONS="+nodeOptions, func(t *testing.T) {
			if nodeOptions != "" {
				t.Setenv("NODE_OPTIONS", nodeOptions)
			}
			h := newHarness(t)
			s := h.start(api.StartRequest{Target: "forever.js"})
			h.waitFor(s.ID, 0, "console")
			listeners := listeningSockets(t, s.PID)
			if len(listeners) == 0 {
				t.Fatal("the child has no listening socket: the inspector should listen")
			}
			client := &http.Client{Transport: &http.Transport{}}
			defer client.CloseIdleConnections()
			for _, l := range listeners {
				if !strings.HasPrefix(l, "127.0.0.1:") {
					t.Fatalf("child listens on %s, want 127.0.0.1 only", l)
				}
				resp, err := client.Get("http://" + l + "/json/list")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusNotFound {
					t.Fatalf("GET /json/list on %s: %d, want 404", l, resp.StatusCode)
				}
			}
		})
	}
}

// listeningSockets returns "ip:port" of the TCP sockets pid listens on, from /proc.
func listeningSockets(t *testing.T, pid int) []string {
	t.Helper()
	inodes := map[string]bool{}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	var out []string
	for _, table := range []string{"tcp", "tcp6"} {
		f, err := os.Open(fmt.Sprintf("/proc/%d/net/%s", pid, table))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			// sl local_address rem_address st ... inode (field 9)
			if len(fields) < 10 || fields[3] != "0A" || !inodes[fields[9]] {
				continue
			}
			out = append(out, decodeProcAddr(t, fields[1]))
		}
		f.Close()
	}
	return out
}

// decodeProcAddr turns /proc/net/tcp's "0100007F:1F90" into "127.0.0.1:8080" (IPv6 shown raw).
func decodeProcAddr(t *testing.T, s string) string {
	host, port, _ := strings.Cut(s, ":")
	p, err := strconv.ParseUint(port, 16, 16)
	if err != nil {
		t.Fatal(err)
	}
	b, err := hex.DecodeString(host)
	if err != nil || len(b) != 4 {
		return "[" + host + "]:" + strconv.FormatUint(p, 10)
	}
	return fmt.Sprintf("%d.%d.%d.%d:%d", b[3], b[2], b[1], b[0], p)
}

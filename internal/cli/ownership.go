package cli

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// firstContact bounds the check that a recorded service answers: a port that accepts and
// never answers must not hold a command for the request bound.
const firstContact = 1500 * time.Millisecond

// startGrace is how long after its start a service may take to answer at all: a CLI that
// finds the record another shell just wrote waits for it rather than start a second one.
const startGrace = 10 * time.Second

// provenService reports whether rec names a running traced service of ours, before any token
// is sent there: its process runs the traced binary self and holds the listening socket at
// its address (a stale record may name a reused pid and a port another server took), and that
// socket answers the unauthenticated /healthz within firstContact (startGrace after its start).
func provenService(rec *Record, self string) error {
	if !alive(rec.PID) {
		return fmt.Errorf("pid %d is gone", rec.PID)
	}
	if err := runsBinary(rec.PID, self); err != nil {
		return err
	}
	inode, err := listenerInode(rec.Addr)
	if err != nil {
		return err
	}
	if !holdsSocket(rec.PID, inode) {
		return fmt.Errorf("pid %d does not hold the socket listening at %s", rec.PID, rec.Addr)
	}
	return healthy(rec.Addr, later(time.Now().Add(firstContact), rec.Started.Add(startGrace)))
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// runsBinary checks that pid's executable is self (or was, at self's path, before an upgrade
// replaced the file).
func runsBinary(pid int, self string) error {
	exe := fmt.Sprintf("/proc/%d/exe", pid)
	if a, err := os.Stat(exe); err == nil {
		if b, err := os.Stat(self); err == nil && os.SameFile(a, b) {
			return nil
		}
	}
	link, err := os.Readlink(exe)
	if err != nil {
		return fmt.Errorf("pid %d: %w", pid, err)
	}
	want, err := filepath.EvalSymlinks(self)
	if err != nil {
		want = self
	}
	if strings.TrimSuffix(link, " (deleted)") != want {
		return fmt.Errorf("pid %d runs %s, not traced (%s)", pid, link, self)
	}
	return nil
}

// listenerInode finds the inode of the TCP socket listening at addr in /proc/net/tcp{,6}.
func listenerInode(addr string) (string, error) {
	ap, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("service address %q: %w", addr, err)
	}
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			if local, ok := procAddr(fields[1]); ok && local.Port == ap.Port && local.IP.Equal(ap.IP) {
				f.Close()
				return fields[9], nil
			}
		}
		f.Close()
	}
	return "", fmt.Errorf("nothing listens at %s", addr)
}

// procAddr decodes an address of /proc/net/tcp: hex IP (32-bit words in host order, little
// endian here) and hex port.
func procAddr(s string) (*net.TCPAddr, bool) {
	ipHex, portHex, ok := strings.Cut(s, ":")
	raw, err := hex.DecodeString(ipHex)
	port, perr := strconv.ParseUint(portHex, 16, 16)
	if !ok || err != nil || perr != nil || (len(raw) != 4 && len(raw) != 16) {
		return nil, false
	}
	ip := make(net.IP, len(raw))
	for w := 0; w < len(raw); w += 4 {
		for i := range 4 {
			ip[w+i] = raw[w+3-i]
		}
	}
	return &net.TCPAddr{IP: ip, Port: int(port)}, true
}

// holdsSocket reports whether one of pid's descriptors is the socket of inode.
func holdsSocket(pid int, inode string) bool {
	dir := fmt.Sprintf("/proc/%d/fd", pid)
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	want := "socket:[" + inode + "]"
	for _, fd := range fds {
		if link, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && link == want {
			return true
		}
	}
	return false
}

// healthy asks the unauthenticated /healthz at addr, bounded by deadline.
func healthy(addr string, deadline time.Time) error {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+addr+"/healthz", nil)
	if err != nil {
		return fmt.Errorf("health of %s: %w", addr, err)
	}
	client := &http.Client{Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("health of %s: %w", addr, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health of %s: %s", addr, resp.Status)
	}
	return nil
}

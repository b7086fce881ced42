package launch

import (
	"errors"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"traced/internal/engine/proctree"
)

func TestSignalName(t *testing.T) {
	cases := []struct {
		sig  syscall.Signal
		want string
	}{
		{syscall.SIGKILL, "SIGKILL"},
		{syscall.SIGTERM, "SIGTERM"},
		{syscall.SIGINT, "SIGINT"},
		{syscall.SIGABRT, "SIGABRT"},
		{syscall.SIGSEGV, "SIGSEGV"},
		{syscall.SIGHUP, "SIGHUP"},
		{syscall.SIGUSR1, "SIGUSR1"},
		{syscall.Signal(200), "signal 200"},
		{syscall.Signal(0), "signal 0"},
	}
	for _, c := range cases {
		if got := signalName(c.sig); got != c.want {
			t.Errorf("signalName(%d) = %q, want %q", int(c.sig), got, c.want)
		}
	}
}

// spawnSh spawns sh -c script as node would be, without a shim.
func spawnSh(t *testing.T, script string, env map[string]string) *Child {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	c, err := Spawn(Command{Node: sh, Args: []string{"-c", script}, Dir: t.TempDir(), Env: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-c.Exited(): // its pid may be another's now
		default:
			c.Kill()
		}
	})
	return c
}

// TestSpawnOutputAndExit: every line comes to its stream's reader, stderrEnd runs once stderr
// is read, and Wait answers the exit code or the signal, having removed the tree's record.
func TestSpawnOutputAndExit(t *testing.T) {
	code := 3
	for _, c := range []struct {
		name, script string
		want         Exit
	}{
		{"exit code", `echo "out $X"; echo err >&2; printf 'last'; exit 3`, Exit{Code: &code}},
		{"signal", `echo "out $X"; echo err >&2; printf 'last'; kill -TERM $$`, Exit{Signal: "SIGTERM"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			child := spawnSh(t, c.script, map[string]string{"X": "y"})
			dir := t.TempDir()
			if err := child.RecordTree(dir); err != nil {
				t.Fatal(err)
			}
			var out, errs []string
			ended := false
			child.ReadOutput(func(l string) { out = append(out, l) }, func(l string) { errs = append(errs, l) }, func() { ended = true })
			exit := child.Wait(time.Second)
			if !reflect.DeepEqual(exit, c.want) {
				t.Errorf("exit %+v, want %+v", exit, c.want)
			}
			if !reflect.DeepEqual(out, []string{"out y", "last"}) || !reflect.DeepEqual(errs, []string{"err"}) || !ended {
				t.Errorf("stdout %q, stderr %q, stderr ended %v", out, errs, ended)
			}
			if left, _ := os.ReadDir(dir + "/traced-trees"); len(left) != 0 {
				t.Errorf("the tree's record outlived node: %v", left)
			}
			select {
			case <-child.Exited():
			default:
				t.Error("Wait returned before Exited closed")
			}
		})
	}
}

// TestSpawnTagsTheTree: the child's environment carries a tree tag of its own, and neither the
// service's NODE_OPTIONS nor its token.
func TestSpawnTagsTheTree(t *testing.T) {
	t.Setenv("NODE_OPTIONS", "--require /evil.js")
	t.Setenv("TRACED_TOKEN", "secret")
	c := spawnSh(t, `echo "$`+proctree.TagEnv+`|$NODE_OPTIONS|$TRACED_TOKEN"`, nil)
	var out []string
	c.ReadOutput(func(l string) { out = append(out, l) }, func(string) {}, nil)
	c.Wait(time.Second)
	if len(out) != 1 || len(c.tag) != 32 || out[0] != c.tag+"||" {
		t.Fatalf("the child saw %q, want its tag %q and nothing else", out, c.tag)
	}
}

// TestTerminateAndKill: Terminate sends node's group SIGTERM; Kill ends a tree that ignores it.
func TestTerminateAndKill(t *testing.T) {
	for _, c := range []struct {
		name, script string
		end          func(*Child)
		want         string
	}{
		{"terminate", `echo ready; exec sleep 60`, (*Child).Terminate, "SIGTERM"},
		{"kill", `trap '' TERM; echo ready; while :; do sleep 1; done`, (*Child).Kill, "SIGKILL"},
	} {
		t.Run(c.name, func(t *testing.T) {
			child := spawnSh(t, c.script, nil)
			ready := make(chan struct{})
			child.ReadOutput(func(string) { close(ready) }, func(string) {}, nil)
			<-ready
			c.end(child)
			select {
			case <-child.Exited():
			case <-time.After(10 * time.Second):
				t.Fatal("still running")
			}
			if exit := child.Wait(time.Second); exit.Signal != c.want {
				t.Fatalf("exit %+v, want %s", exit, c.want)
			}
		})
	}
}

// TestSpawnTooLong: an argument list execve refuses as too long comes back as syscall.E2BIG,
// which the engine answers as the request's error.
func TestSpawnTooLong(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh:", err)
	}
	_, err = Spawn(Command{Node: sh, Args: []string{"-c", "true", strings.Repeat("x", maxArgStrlen)}, Dir: t.TempDir()})
	if !errors.Is(err, syscall.E2BIG) {
		t.Fatalf("Spawn: %v, want E2BIG", err)
	}
}

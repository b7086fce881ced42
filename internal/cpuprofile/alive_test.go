package cpuprofile

import (
	"context"
	"encoding/json"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// aliveAnswer is what testdata/alive/harness.js prints: the snippets' answers.
type aliveAnswer struct {
	Alive      string `json:"alive"`
	Timers     string `json:"timers"`
	TimerLines []int  `json:"timerLines"` // 0-based
	Workers    string `json:"workers"`
}

// runAlive runs a keep-alive fixture under the harness (in a worker thread when inWorker) and
// parses the snippets' answers the way the engine will. The harness and whatever it spawned
// are killed as a process group.
func runAlive(t *testing.T, node, fixture string, inWorker bool, args ...string) (Alive, []int) {
	t.Helper()
	snippets, err := json.Marshal(map[string]string{
		"alive": AliveJS, "timeoutPrototype": TimeoutPrototypeJS, "timersDescribe": TimersDescribeJS,
		"timerCallbacks": TimerCallbacksJS, "workerPrototype": WorkerPrototypeJS, "workersDescribe": WorkersDescribeJS,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"harness.js", fixture}, args...)...)
	cmd.Dir = "testdata/alive"
	cmd.Env = append(cmd.Environ(), "TRACED_SNIPPETS="+string(snippets))
	if inWorker {
		cmd.Env = append(cmd.Env, "TRACED_IN_WORKER=1")
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the fixture's child, if any
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", fixture, err, stderr.String())
	}
	var ans aliveAnswer
	if err := json.Unmarshal(out, &ans); err != nil {
		t.Fatalf("%s: %v\n%s", fixture, err, out)
	}
	a, err := ParseAlive([]byte(ans.Alive))
	if err != nil {
		t.Fatal(err)
	}
	timers, err := ParseHandles([]byte(ans.Timers))
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.TimerLines) != len(timers) {
		t.Fatalf("%d timer callbacks for %d timers", len(ans.TimerLines), len(timers))
	}
	for i := range timers {
		if ans.TimerLines[i] < 0 {
			continue // a bound function has no location
		}
		timers[i].Location = fixture + ":" + strconv.Itoa(ans.TimerLines[i]+1)
	}
	workers, err := ParseHandles([]byte(ans.Workers))
	if err != nil {
		t.Fatal(err)
	}
	a.Add(timers)
	a.Add(workers)
	return a, ans.TimerLines
}

// TestAliveFixtures: on every installed node, each keep-alive fixture is named by the first
// line of the answer, and an unref'd timer is listed apart as not keeping the process alive.
func TestAliveFixtures(t *testing.T) {
	peer, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 16) // more than the socket fixture's runs
	done := make(chan struct{})
	go func() { // accept the socket fixture's connections until the listener closes
		defer close(done)
		for {
			c, err := peer.Accept()
			if err != nil {
				return
			}
			select {
			case accepted <- c:
			default:
				c.Close()
			}
		}
	}()
	t.Cleanup(func() {
		peer.Close()
		<-done
		close(accepted)
		for c := range accepted {
			c.Close()
		}
	})
	port := strconv.Itoa(peer.Addr().(*net.TCPAddr).Port)
	for version, node := range nodeBinaries(t) {
		t.Run(version, func(t *testing.T) {
			for _, c := range []struct {
				fixture string
				args    []string
				first   string // in the first line
				apart   string // in the unref'd line
			}{
				{"interval.js", nil, "because: interval 1000 ms poll at interval.js:3", ""},
				{"server.js", nil, "because: server listening on 127.0.0.1:", ""},
				{"child.js", nil, "because: child process ", ""},
				{"socket.js", []string{port}, "because: socket to 127.0.0.1:" + port, ""},
				{"port.js", nil, "because: MessagePort with a listener", ""},
				{"unref.js", nil, "nothing keeps it alive", "timeout 60.0 s late at unref.js:3"},
				{"worker.js", nil, "because: worker thread 1", ""},
				{"unrefworker.js", nil, "nothing keeps it alive", "worker thread 1"},
			} {
				t.Run(c.fixture, func(t *testing.T) {
					a, _ := runAlive(t, node, c.fixture, false, c.args...)
					text := RenderAlive("main", a, 0)
					t.Logf("%s", text)
					first, rest, _ := strings.Cut(text, "\n")
					if !strings.Contains(first, c.first) {
						t.Errorf("first line %q lacks %q", first, c.first)
					}
					if c.apart != "" && (!strings.HasPrefix(rest, "  not keeping it alive (unref'd or inactive): ") || !strings.Contains(rest, c.apart)) {
						t.Errorf("unref'd line lacks %q", c.apart)
					}
					if c.fixture == "child.js" && (!strings.Contains(first, "(sleep 30)") || strings.Contains(first, "stdio pipe")) {
						t.Errorf("child not named with its command, its pipes not folded into it: %q", first)
					}
				})
			}
		})
	}
}

// TestAliveProbeLeavesNoTimer: the snippets' own work leaves nothing behind: the probe timer is
// cleared, so a fixture with only an unref'd timer still has no pending ref'd timer.
func TestAliveProbeLeavesNoTimer(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node")
	}
	a, _ := runAlive(t, node, "unref.js", false)
	if n := a.Resources["Timeout"]; n != 0 {
		t.Errorf("%d ref'd Timeouts pending after the probe: %+v", n, a.Resources)
	}
}

// TestAliveInWorker: the snippets answer in a worker thread too, through the worker's own
// inspector session, as the engine reaches a worker target.
func TestAliveInWorker(t *testing.T) {
	for version, node := range nodeBinaries(t) {
		t.Run(version, func(t *testing.T) {
			a, _ := runAlive(t, node, "interval.js", true)
			text := RenderAlive("worker 1", a, 0)
			t.Logf("%s", text)
			if !strings.HasPrefix(text, "worker 1 (pid ") || !strings.Contains(text, ", thread 1): still running because: interval 1000 ms poll at interval.js:3") {
				t.Errorf("got %q", text)
			}
		})
	}
}

// TestServerWords: a server whose address() is null (closed, its connections still open; or not
// bound yet) is not said to listen on an unknown address.
func TestServerWords(t *testing.T) {
	if got := handleWords(Handle{Kind: "server"}); got != "server (not listening)" {
		t.Errorf("no address: %q", got)
	}
	if got := handleWords(Handle{Kind: "server", Address: "127.0.0.1:80"}); got != "server listening on 127.0.0.1:80" {
		t.Errorf("with an address: %q", got)
	}
}

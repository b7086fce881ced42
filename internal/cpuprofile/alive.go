package cpuprofile

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Handle is one thing that can keep an event loop alive, as the alive snippets describe it.
type Handle struct {
	// Kind is server, socket, pipe, child, child-stdio, message-port, stdio, timeout, interval,
	// immediate, worker, request or other.
	Kind     string  `json:"kind"`
	Type     string  `json:"type,omitempty"` // the JS constructor's name
	Ref      bool    `json:"ref"`            // false: unref'd, it lets the process exit
	FD       *int    `json:"fd,omitempty"`
	Address  string  `json:"address,omitempty"` // a server's "host:port" or pipe path
	Peer     string  `json:"peer,omitempty"`    // a socket's remote end
	Local    string  `json:"local,omitempty"`   // a socket's own end
	PID      int     `json:"pid,omitempty"`     // a child process's
	Command  string  `json:"command,omitempty"` // a child process's command line
	Owner    int     `json:"owner,omitempty"`   // a child's stdio pipe: the child's pid
	DelayMs  float64 `json:"delayMs,omitempty"` // a timer's
	Callback string  `json:"callback,omitempty"`
	Location string  `json:"location,omitempty"` // the callback's file:line, filled in by the engine
	ThreadID int     `json:"threadId,omitempty"` // a worker's
	// Created is the stack its resource was created with (innermost first, node's own frames
	// dropped, generated positions), when the creation hook ran (CreationHookJS).
	Created []Site `json:"created,omitempty"`
	// CreatedAt is the file:line of Created's first frame of the program's, original position
	// where a source map says, filled in by the engine; Creation those frames, "fn file:line".
	CreatedAt string   `json:"-"`
	Creation  []string `json:"-"`
}

// Site is one frame of a creation stack, as V8's call site gives it (1-based).
type Site struct {
	Function string `json:"fn"`
	URL      string `json:"url"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
}

// Alive is what keeps one process or thread running.
type Alive struct {
	PID       int            `json:"pid"`
	ThreadID  int            `json:"threadId"`
	Handles   []Handle       `json:"handles"`
	Requests  []Handle       `json:"requests"`
	Resources map[string]int `json:"resources"` // ref'd resources by type, from getActiveResourcesInfo
}

// ParseAlive reads AliveJS's answer.
func ParseAlive(data []byte) (Alive, error) {
	var a Alive
	if err := json.Unmarshal(data, &a); err != nil {
		return Alive{}, fmt.Errorf("alive handles: %w", err)
	}
	return a, nil
}

// ParseHandles reads TimersDescribeJS's or WorkersDescribeJS's answer.
func ParseHandles(data []byte) ([]Handle, error) {
	var hs []Handle
	if err := json.Unmarshal(data, &hs); err != nil {
		return nil, fmt.Errorf("alive handles: %w", err)
	}
	return hs, nil
}

// Add joins handles found otherwise (timers, workers) to a's.
func (a *Alive) Add(hs []Handle) { a.Handles = append(a.Handles, hs...) }

// Keeping reports the handles and requests that keep the loop alive: ref'd ones, a child's
// stdio pipes folded into their child. Ref'd timers and immediates node counts but nobody
// described (no queryObjects answer joined) are listed by their count.
func (a Alive) Keeping() []Handle {
	out := a.byRef(true)
	for _, c := range []struct{ resource, kind string }{{"Timeout", "timeout"}, {"Immediate", "immediate"}} {
		n := a.Resources[c.resource]
		for _, h := range a.Handles {
			if h.Ref && (h.Kind == c.kind || c.kind == "timeout" && h.Kind == "interval") {
				n--
			}
		}
		for range max(n, 0) {
			out = append(out, Handle{Kind: c.kind, Type: c.resource, Ref: true})
		}
	}
	return out
}

// NotKeeping reports the unref'd handles: listed apart, they let the process exit.
func (a Alive) NotKeeping() []Handle { return a.byRef(false) }

func (a Alive) byRef(ref bool) []Handle {
	var out []Handle
	for _, h := range slices.Concat(a.Handles, a.Requests) {
		if h.Ref == ref && (h.Kind != "child-stdio" || !a.hasChild(h.Owner)) {
			out = append(out, h)
		}
	}
	return out
}

func (a Alive) hasChild(pid int) bool {
	return slices.ContainsFunc(a.Handles, func(h Handle) bool { return h.Kind == "child" && h.PID == pid })
}

// RenderAlive says why a target is still running, within maxBytes (MaxTextBytes when 0):
// the first line names every ref'd handle; unref'd ones follow apart.
func RenderAlive(target string, a Alive, maxBytes int) string {
	if maxBytes <= 0 {
		maxBytes = MaxTextBytes
	}
	w := boundedText{max: maxBytes}
	who := cmpOr(target, "target")
	if a.PID != 0 {
		who += " (pid " + strconv.Itoa(a.PID)
		if a.ThreadID != 0 {
			who += ", thread " + strconv.Itoa(a.ThreadID)
		}
		who += ")"
	}
	keeping := a.Keeping()
	if len(keeping) == 0 {
		w.line(who + ": nothing keeps it alive: its event loop can end")
	} else {
		w.line(who + ": still running because: " + joinHandles(keeping))
	}
	if rest := a.NotKeeping(); len(rest) > 0 {
		w.line("  not keeping it alive (unref'd or inactive): " + joinHandles(rest))
	}
	return w.String()
}

// joinHandles lists handles, the same description counted once: "3 × socket to ...".
func joinHandles(hs []Handle) string {
	var order []string
	count := map[string]int{}
	for _, h := range hs {
		d := describeHandle(h)
		if count[d] == 0 {
			order = append(order, d)
		}
		count[d]++
	}
	for i, d := range order {
		if n := count[d]; n > 1 {
			order[i] = strconv.Itoa(n) + " × " + d
		}
	}
	return strings.Join(order, "; ")
}

// describeHandle is one handle in words, with where it was created when known.
func describeHandle(h Handle) string {
	d := handleWords(h)
	if h.CreatedAt != "" && !strings.HasSuffix(d, " at "+h.CreatedAt) {
		d += " (created at " + h.CreatedAt + ")"
	}
	return d
}

// handleWords is what a handle is and leads to.
func handleWords(h Handle) string {
	switch h.Kind {
	case "server":
		if h.Address == "" { // address() is null: closed and waiting for its connections, or not bound yet
			return "server (not listening)"
		}
		return "server listening on " + h.Address
	case "socket":
		if h.Peer == "" {
			return "socket (unconnected)"
		}
		return "socket to " + h.Peer
	case "child":
		return fmt.Sprintf("child process %d (%s)", h.PID, h.Command)
	case "child-stdio":
		return fmt.Sprintf("stdio pipe of child %d", h.Owner)
	case "message-port":
		return "MessagePort with a listener"
	case "timeout", "interval":
		if h.Callback == "" && h.DelayMs == 0 {
			return "timer (not described)"
		}
		s := fmt.Sprintf("%s %s %s", h.Kind, ms(h.DelayMs), cmpOr(h.Callback, "(anonymous)"))
		if h.Location != "" {
			s += " at " + h.Location
		}
		return s
	case "immediate":
		return "setImmediate callback"
	case "worker":
		return "worker thread " + strconv.Itoa(h.ThreadID)
	case "request":
		return "pending request " + h.Type
	case "stdio", "pipe":
		if h.FD != nil {
			return fmt.Sprintf("%s fd %d", h.Kind, *h.FD)
		}
		return h.Kind
	}
	return cmpOr(h.Type, h.Kind)
}

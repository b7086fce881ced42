package engine

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"traced/internal/cdp/proto"
	"traced/internal/cpuprofile"
)

// AliveHandle is one handle or request of a target's event loop (cpuprofile.Handle): what it
// is, whether it is ref'd, and where it leads (a server's address, a socket's peer, a child's
// pid and command, a timer's delay and callback's file:line, a worker's thread id).
type AliveHandle struct {
	Kind     string
	Type     string
	Ref      bool
	FD       *int
	Address  string
	Peer     string
	Local    string
	PID      int
	Command  string
	DelayMs  float64
	Callback string
	Location string
	ThreadID int
	// CreatedAt is the file:line the program created it at, Creation its creation stack
	// ("function file:line"), in a session started with CreationStacks.
	CreatedAt string
	Creation  []string
}

// AliveTarget is what keeps one target's event loop alive.
type AliveTarget struct {
	Target     string // t0, t1...
	Kind       string // main, worker or process
	PID        int
	ThreadID   int
	Keeping    []AliveHandle // ref'd: each one keeps the loop alive
	NotKeeping []AliveHandle // unref'd or inactive: listed apart
	Error      string        // why the target could not be asked
}

// AliveReport answers why a session's program does not exit, every live target in one answer.
type AliveReport struct {
	Targets []AliveTarget
	Text    string // at most cpuprofile.MaxTextBytes; each target's first line says what keeps it
}

// aliveGroup is the object group of the objects the alive questions hold, released after.
const aliveGroup = "traced-alive"

// Alive asks every live target what keeps its event loop alive: node's active handles and
// requests, the pending timers (Runtime.queryObjects on the Timeout prototype, each callback's
// [[FunctionLocation]]) and the running workers. No preload: all of it is evaluated through
// the inspector.
func (s *Session) Alive(ctx context.Context) (AliveReport, error) {
	if err := s.debugOnly(); err != nil {
		return AliveReport{}, err
	}
	return s.alive(ctx)
}

// alive is Alive in a debug or a trace session: it evaluates traced's own snippets, never user
// text, and needs no pause (a trace session asks it as its timeoutMs stops it).
func (s *Session) alive(ctx context.Context) (AliveReport, error) {
	var out AliveReport
	type answer struct {
		name string
		a    *cpuprofile.Alive // nil: not asked, err says why
		err  string
	}
	var answers []answer
	for _, info := range s.Targets() {
		t, err := s.On(info.Ref)
		if err != nil || info.Status == TargetExited || info.Status == TargetReleased {
			continue
		}
		at := AliveTarget{Target: info.Ref, Kind: info.Kind}
		a, err := t.alive(ctx)
		if err != nil {
			at.Error = err.Error()
			answers = append(answers, answer{name: targetName(info), err: at.Error})
		} else {
			at.PID, at.ThreadID = a.PID, a.ThreadID
			at.Keeping, at.NotKeeping = aliveHandles(a.Keeping()), aliveHandles(a.NotKeeping())
			answers = append(answers, answer{name: targetName(info), a: &a})
		}
		out.Targets = append(out.Targets, at)
	}
	if len(answers) == 0 {
		return AliveReport{}, fmt.Errorf("%w: no target of session %s is live", ErrFinished, s.id)
	}
	var b strings.Builder
	for i, an := range answers { // the targets share the budget; what one leaves, the next may use
		share := (cpuprofile.MaxTextBytes - b.Len()) / (len(answers) - i)
		if an.a == nil {
			line := an.name + ": not asked: " + an.err
			b.WriteString(line[:min(len(line), max(share-1, 0))] + "\n")
			continue
		}
		b.WriteString(cpuprofile.RenderAlive(an.name, *an.a, share))
	}
	out.Text = b.String()
	return out, nil
}

// alive asks one target.
func (t *Target) alive(ctx context.Context) (cpuprofile.Alive, error) {
	c, err := t.aliveConn()
	if err != nil {
		return cpuprofile.Alive{}, err
	}
	defer proto.Do(context.WithoutCancel(ctx), c, proto.RuntimeReleaseObjectGroup{ObjectGroup: aliveGroup}, nil)
	v, err := evalJSON(ctx, c, cpuprofile.AliveJS)
	if err != nil {
		return cpuprofile.Alive{}, fmt.Errorf("alive: %w", err)
	}
	a, err := cpuprofile.ParseAlive([]byte(v))
	if err != nil {
		return cpuprofile.Alive{}, err
	}
	timers, arr, err := queryDescribe(ctx, c, cpuprofile.TimeoutPrototypeJS, cpuprofile.TimersDescribeJS)
	if err != nil {
		return cpuprofile.Alive{}, fmt.Errorf("alive timers: %w", err)
	}
	t.locateCallbacks(ctx, c, arr, timers)
	a.Add(timers)
	// A node without worker_threads' prototype (or a target that is itself torn down) still
	// answers its handles and timers.
	if workers, _, err := queryDescribe(ctx, c, cpuprofile.WorkerPrototypeJS, cpuprofile.WorkersDescribeJS); err == nil {
		a.Add(workers)
	}
	t.placeCreation(a.Handles)
	t.placeCreation(a.Requests)
	return a, nil
}

// maxCreation caps the frames of a creation stack an answer shows.
const maxCreation = 3

// placeCreation fills each handle's CreatedAt and Creation from its creation stack, positions
// mapped as the timers' callbacks' are; traced's preload and node's own frames are dropped.
func (t *Target) placeCreation(hs []cpuprofile.Handle) {
	var ids map[string]string // script URL -> id, made at the first stack
	for i := range hs {
		h := &hs[i]
		for _, site := range h.Created {
			if ids == nil {
				ids = t.scriptIDs()
			}
			url := site.URL
			if strings.HasPrefix(url, "/") { // a CommonJS module's call site names its path
				url = "file://" + url
			}
			fr := t.SourceMapping().place(site.Function, ids[url], url, site.Line-1, site.Column-1)
			if fr.Internal {
				continue
			}
			at := where(cmp.Or(fr.File, fr.URL), fr.Line)
			if h.CreatedAt == "" {
				h.CreatedAt = at
			}
			h.Creation = append(h.Creation, strings.TrimSpace(fr.Function+" "+at))
			if len(h.Creation) == maxCreation {
				break
			}
		}
	}
}

// scriptIDs maps each script's URL to its id.
func (t *Target) scriptIDs() map[string]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	ids := make(map[string]string, len(t.scripts))
	for id, sc := range t.scripts {
		if sc.URL != "" {
			ids[sc.URL] = id
		}
	}
	return ids
}

// aliveConn is the target's bounded connection: a debug session's as every debugger call
// gets it, a trace session's while the target is live.
func (t *Target) aliveConn() (clientCaller, error) {
	if t.s.mode == ModeDebug {
		return t.liveClient()
	}
	t.lock()
	defer t.unlock()
	c := t.caller()
	if t.s.endedAt != nil || t.s.lost || c == nil || !t.main() && t.s.targets.live[t.ref] != t {
		return nil, fmt.Errorf("%w: target %s of %s", ErrFinished, t.Ref(), t.s.id)
	}
	return boundedCaller{c: c, s: t}, nil
}

// queryDescribe finds every object of the prototype an expression evaluates to
// (Runtime.queryObjects) and describes them with a function called on their array; it answers
// the array's object id too.
func queryDescribe(ctx context.Context, c clientCaller, prototypeJS, describeJS string) ([]cpuprofile.Handle, string, error) {
	var prototype evaluateResult
	if err := proto.Do(ctx, c, proto.RuntimeEvaluate{
		Expression: prototypeJS, ObjectGroup: aliveGroup, Silent: true,
	}, &prototype); err != nil {
		return nil, "", err
	}
	if prototype.ExceptionDetails != nil || prototype.Result.ObjectID == "" {
		return nil, "", fmt.Errorf("no prototype from %.40q", prototypeJS)
	}
	var q struct {
		Objects remoteObject `json:"objects"`
	}
	if err := proto.Do(ctx, c, proto.RuntimeQueryObjects{
		PrototypeObjectID: prototype.Result.ObjectID, ObjectGroup: aliveGroup,
	}, &q); err != nil {
		return nil, "", err
	}
	var res evaluateResult
	if err := proto.Do(ctx, c, proto.RuntimeCallFunctionOn{
		ObjectID: q.Objects.ObjectID, FunctionDeclaration: describeJS, ReturnByValue: true, Silent: true,
	}, &res); err != nil {
		return nil, "", err
	}
	text, ok := res.Result.Value.(string)
	if res.ExceptionDetails != nil || !ok {
		return nil, "", fmt.Errorf("describing %.40q failed", prototypeJS)
	}
	hs, err := cpuprofile.ParseHandles([]byte(text))
	return hs, q.Objects.ObjectID, err
}

// maxLocatedTimers caps the callbacks located one call each: a program with thousands of
// timers is named by its first ones.
const maxLocatedTimers = 50

// locateCallbacks fills each timer's Location with its callback's file:line, from the
// callback's [[FunctionLocation]]; a timer whose callback cannot be located keeps its name.
func (t *Target) locateCallbacks(ctx context.Context, c clientCaller, timersID string, timers []cpuprofile.Handle) {
	var res evaluateResult
	if err := proto.Do(ctx, c, proto.RuntimeCallFunctionOn{
		ObjectID: timersID, FunctionDeclaration: cpuprofile.TimerCallbacksJS, ObjectGroup: aliveGroup,
		Silent: true,
	}, &res); err != nil || res.Result.ObjectID == "" {
		return
	}
	var elems struct {
		Result []struct {
			Name  string       `json:"name"`
			Value remoteObject `json:"value"`
		} `json:"result"`
	}
	if err := proto.Do(ctx, c, proto.RuntimeGetProperties{
		ObjectID: res.Result.ObjectID, OwnProperties: true,
	}, &elems); err != nil {
		return
	}
	for _, e := range elems.Result {
		i, ok := arrayIndex(e.Name)
		if !ok || i >= len(timers) || i >= maxLocatedTimers || e.Value.ObjectID == "" {
			continue
		}
		var props struct {
			Internal []struct {
				Name  string `json:"name"`
				Value struct {
					Value struct {
						ScriptID     string `json:"scriptId"`
						LineNumber   int    `json:"lineNumber"`
						ColumnNumber int    `json:"columnNumber"`
					} `json:"value"`
				} `json:"value"`
			} `json:"internalProperties"`
		}
		if err := proto.Do(ctx, c, proto.RuntimeGetProperties{
			ObjectID: e.Value.ObjectID, OwnProperties: true,
		}, &props); err != nil {
			continue
		}
		for _, p := range props.Internal {
			if p.Name == "[[FunctionLocation]]" {
				loc := p.Value.Value
				fr := t.SourceMapping().place("", loc.ScriptID, t.Inspector().scriptURL(loc.ScriptID), loc.LineNumber, loc.ColumnNumber)
				timers[i].Location = where(cmp.Or(fr.File, fr.URL), fr.Line)
			}
		}
	}
}

var indexRE = regexp.MustCompile(`^[0-9]+$`)

// arrayIndex reads an array element's property name.
func arrayIndex(name string) (int, bool) {
	if !indexRE.MatchString(name) || len(name) > 6 {
		return 0, false
	}
	n := 0
	for _, r := range name {
		n = n*10 + int(r-'0')
	}
	return n, true
}

// where renders file:line, the file alone without a line.
func where(file string, line int) string {
	if file == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// aliveHandles converts cpuprofile's handles.
func aliveHandles(hs []cpuprofile.Handle) []AliveHandle {
	out := make([]AliveHandle, 0, len(hs))
	for _, h := range hs {
		out = append(out, AliveHandle{Kind: h.Kind, Type: h.Type, Ref: h.Ref, FD: h.FD, Address: h.Address, Peer: h.Peer, Local: h.Local,
			PID: cmp.Or(h.PID, h.Owner), Command: h.Command, DelayMs: h.DelayMs, Callback: h.Callback, Location: h.Location, ThreadID: h.ThreadID,
			CreatedAt: h.CreatedAt, Creation: h.Creation})
	}
	return out
}

// stillRunningBound bounds the alive question a timed-out wait adds to its answer: the wait
// has already taken its time.
const stillRunningBound = 3 * time.Second

// maxStillRunningBytes caps that addition: each target's first line, not the whole report.
const maxStillRunningBytes = 600

// StillRunning says, for a wait that timed out or a session its timeoutMs stops, what keeps
// the program running: each live target's first line of Alive; "" when nothing can be asked.
func (s *Session) StillRunning(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, stillRunningBound)
	defer cancel()
	rep, err := s.alive(ctx)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, l := range strings.Split(rep.Text, "\n") {
		if l == "" || strings.HasPrefix(l, " ") {
			continue // the unref'd ones: not why it runs
		}
		if b.Len()+len(l)+1 > maxStillRunningBytes {
			b.WriteString("… GET alive answers the rest\n")
			break
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

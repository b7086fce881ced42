package engine

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"traced/internal/cdp"
	"traced/internal/cdp/proto"
)

// Child processes are targets of the session. traced's preload (boot/preload.cjs), loaded in
// every node process of the tree through NODE_OPTIONS, opens an inspector in each child and
// announces it on a FIFO of the session's, then waits; traced attaches it as a target of the
// session (targetsetup.go) or, when children are not followed, only lets it run. Either way
// traced stays connected until the child ends: hung up early, node could still stop at a break
// nobody resumes. A process that prints an inspector URL on the shared output instead (one
// started with --inspect of its own) is let run the same way. Under node --test the main
// target is whichever process of the tree prints its inspector on stderr first: the runner's,
// or the first test file's when the runner opens none in time; the others are targets.

// announceEnv names the FIFO in the tree's environment.
const announceEnv = "TRACED_ANNOUNCE"

// childSetupTimeout bounds the calls that set up or let run one child.
const childSetupTimeout = 5 * time.Second

// announcement is what a child's preload says of itself.
type announcement struct {
	PID  int      `json:"pid"`
	PPID int      `json:"ppid"`
	URL  string   `json:"url"`
	Argv []string `json:"argv"`
	brk  bool     // it was started with --inspect-brk: it breaks at its first line once let run
	// waits: it announced itself on the FIFO and waits in traced's preload, which lets it run at
	// traced's go-ahead (preloadGo) or, when its inspector cannot be reached, at a file of its
	// pid beside the FIFO (releaseUntraced).
	waits bool
}

// announcements is the session's FIFO and its reader.
type announcements struct {
	path string
	f    *os.File
	wg   sync.WaitGroup
}

// endChildren hangs up every child connection and waits until each has gone.
func (tr Tree) endChildren() {
	tr.s.mu.Lock()
	if tr.s.targets.ended {
		tr.s.mu.Unlock()
		return
	}
	tr.s.targets.ended = true
	close(tr.s.targets.ending)
	tr.s.mu.Unlock()
	tr.s.targets.conns.Wait()
}

// openAnnouncements makes the session's FIFO and starts reading it. It is opened for reading
// and writing, so that opening does not wait for a writer and a read waits for the next line.
func (t *Target) openAnnouncements(path string) error {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		return fmt.Errorf("announce fifo: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("announce fifo: %w", err)
	}
	t.s.announce.path, t.s.announce.f = path, f
	t.s.announce.wg.Add(1)
	go func() {
		defer t.s.announce.wg.Done()
		readAnnouncements(f, func(a announcement) {
			a.waits = true
			t.adopt(a, true)
		})
	}()
	return nil
}

// maxAnnouncement is the longest line a preload writes: one write under PIPE_BUF, which the
// kernel never interleaves with another's.
const maxAnnouncement = 4096

// announceStart is how every preload's line begins. Inside a JSON value its quotes would be
// escaped, so its last occurrence in a line starts the preload's announcement.
var announceStart = []byte(`{"pid":`)

// readAnnouncements hands each announcement on r to adopt until r ends. Anything else a process
// of the tree writes there must not stop the next child's announcement: a line of any length
// is read (only its last maxAnnouncement bytes are kept), and a line that does not parse is
// read from the last announcement start in it (one preceded by half a line another process
// wrote without its newline).
func readAnnouncements(r io.Reader, adopt func(announcement)) {
	br := bufio.NewReaderSize(r, maxAnnouncement)
	var line []byte
	for {
		frag, err := br.ReadSlice('\n')
		line = append(line, frag...)
		if len(line) > maxAnnouncement {
			line = line[:copy(line, line[len(line)-maxAnnouncement:])]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the line goes on
		}
		if err != nil {
			return
		}
		if a, ok := parseAnnouncement(line); ok {
			adopt(a)
		}
		line = line[:0]
	}
}

// parseAnnouncement reads the preload's announcement at the end of line. Only a loopback
// inspector is attached.
func parseAnnouncement(line []byte) (announcement, bool) {
	var a announcement
	i := bytes.LastIndex(line, announceStart)
	if i < 0 || json.Unmarshal(line[i:], &a) != nil || ParseInspectorURL("Debugger listening on "+a.URL) == "" {
		return announcement{}, false
	}
	return a, true
}

// closeAnnouncements stops reading the FIFO once the session ends. The FIFO goes first, so a
// process that opens it after finds nothing and runs untraced; lines already written are read
// (each such child is let run), then the reader ends.
func (tr Tree) closeAnnouncements() {
	if tr.s.announce.f == nil {
		return
	}
	os.Remove(tr.s.announce.path)
	// What is buffered is read; then the reader ends. A FIFO is read through the poller, so
	// the deadline holds; were it refused, closing ends the read instead.
	if err := tr.s.announce.f.SetReadDeadline(time.Now()); err != nil {
		tr.s.announce.f.Close()
	}
	tr.s.announce.wg.Wait()
	tr.s.announce.f.Close()
}

// announced says whether the tree's children announce themselves (the preload is in use):
// their banners on stderr are then not a sign of a process nobody will release.
func (tr Tree) announced() bool {
	tr.s.mu.Lock()
	defer tr.s.mu.Unlock()
	return tr.s.preloadURL != ""
}

// releaseInspector lets a process whose inspector URL came on the shared output run.
func (t *Target) releaseInspector(url string) {
	t.adopt(announcement{URL: url}, false)
}

// announceGrace is how long an inspector whose banner came on the shared output waits for its
// announcement on the FIFO before traced takes it for one a process opened of its own (a child
// the program gave NODE_OPTIONS=--inspect-brk, which replaces traced's and waits before any
// preload): the preload announces right after its banner, so only a loaded machine takes more
// than a moment. The cost of waiting too little is a child let run untraced, never a hang.
const announceGrace = 2 * time.Second

// releaseUnannounced lets a process whose inspector URL came on the shared output run unless
// the FIFO announces it within announceGrace (then it is adopted as announced).
func (tg *Target) releaseUnannounced(url string) {
	s := tg.s
	s.mu.Lock()
	if s.targets.ended || s.inspectorURLs[url] {
		s.mu.Unlock()
		return
	}
	s.targets.conns.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.targets.conns.Done()
		t := time.NewTimer(announceGrace)
		defer t.Stop()
		select {
		case <-t.C:
			tg.releaseInspector(url) // nothing when the FIFO announced it meanwhile
		case <-s.targets.ending:
		}
	}()
}

// adopt makes a child a target: attached when announced and children are followed, else only
// let run. Its connection lives until the child ends or the session does.
func (tg *Target) adopt(a announcement, announced bool) {
	if runsTests(tg.s.req.NodeArgs) {
		select { // the launcher may be taking this very inspector as t0 (Session.mainURLRead)
		case <-tg.s.mainURLRead:
		case <-tg.s.done:
		}
	}
	tg.s.mu.Lock()
	if tg.s.inspectorURLs[a.URL] { // a line may come through stderr and again as a TAP comment
		tg.s.mu.Unlock()
		return
	}
	tg.s.inspectorURLs[a.URL] = true
	e := tg.s.targets.add(TargetInfo{Kind: "process", PID: a.PID, Title: strings.Join(a.Argv, " "), Status: TargetAttached})
	t := &e.info
	ended := tg.s.targets.ended
	switch {
	case ended:
		t.Status, t.Reason = TargetReleased, "the session had ended"
	case !announced:
		t.Status, t.Reason = TargetReleased, "it opened an inspector of its own, not through traced: it runs on uncaptured, but for its output"
	case !tg.s.Tree().follows(t.Title):
		t.Status, t.Reason = TargetReleased, "its command line does not match followMatch"
	}
	if ended { // let it run here, bounded, as nothing waits for connections any more
		tg.s.mu.Unlock()
		tg.runChild(e, a, tg.s.targets.ending)
		return
	}
	tg.s.targets.conns.Add(1)
	tg.s.mu.Unlock()
	go func() {
		defer tg.s.targets.conns.Done()
		tg.runChild(e, a, tg.s.targets.ending)
	}()
}

// childFailed records a child released because traced could not set it up; untraced says it
// runs on without traced's inspector connection (released through the preload).
func (tg *Target) childFailed(e *targetEntry, follow bool, err error, untraced bool) {
	tg.s.mu.Lock()
	t := &e.info
	if follow {
		t.Status, t.Reason = TargetReleased, "set-up failed: "+err.Error()
	}
	if untraced {
		t.Reason += "; it runs on untraced"
	}
	ref := t.Ref
	tg.s.mu.Unlock()
	tg.s.log.Debug("child process", "session", tg.s.id, "target", ref, "err", err)
	tg.record(Event{Kind: KindTarget, Target: ref, TargetInfo: tg.s.Tree().snapshot(e)})
}

// releaseFile is the file whose appearance lets a child waiting in traced's preload run
// without its inspector (boot/preload.cjs).
func releaseFile(fifo string, pid int) string {
	return fifo + "." + strconv.Itoa(pid)
}

// releaseUntraced lets a child that waits in traced's preload run when traced cannot tell it
// through its inspector. The preload removes the file once it has seen it.
func (s *Session) releaseUntraced(ref string, pid int) {
	f, err := os.OpenFile(releaseFile(s.announce.path, pid), os.O_WRONLY|os.O_CREATE, 0o600)
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		s.log.Warn("release child", "session", s.id, "target", ref, "err", err)
	}
}

// runChild connects to a waiting child, sets it up (a followed one as a target of the session,
// a released one only with its pauses skipped), lets it run and stays until it ends. One whose
// set-up failed is let run all the same, its pauses skipped.
func (tg *Target) runChild(e *targetEntry, a announcement, ending <-chan struct{}) {
	tg.lock()
	t := &e.info
	follow, ref := t.Status == TargetAttached, t.Ref
	tg.unlock()
	var tgt *Target // the child as a target; nil when it is only let run
	if follow {
		tgt = tg.newTargetOf(ref)
		tg.lock()
		e.t = tgt
		tg.unlock()
		defer tgt.undebugged()
	}
	waiting := make(chan struct{}, 1)
	onEvent := func(ev cdp.Event) {
		if ev.Method == proto.EventWaitingForDisconnect {
			signal(waiting)
			return
		}
		if tgt != nil {
			tgt.dispatcher().onEvent(ev)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), childSetupTimeout)
	defer cancel()
	c, err := cdp.Dial(ctx, a.URL, cdp.Options{OnEvent: onEvent})
	if err != nil {
		// Nothing can reach its inspector: released must mean running all the same.
		tg.childFailed(e, follow, fmt.Errorf("connect to its inspector: %w", err), a.waits)
		if a.waits {
			tg.s.releaseUntraced(ref, a.PID)
		}
		return
	}
	defer func() {
		c.Close()
		<-c.Done()
	}()
	err = callSteps(ctx, c, notifyAtDisconnect)
	switch {
	case err != nil:
	case tgt != nil:
		tgt.lock()
		tgt.conn = c
		tgt.unlock()
		err = tgt.setUpTarget(ctx, tgt.callerOf(c), a.brk)
	default:
		err = callSteps(ctx, c, proto.DebuggerEnable{}, skipPauses)
	}
	if errors.Is(err, cdp.ErrClosed) {
		err = fmt.Errorf("it ended first: %w", err)
	}
	var run []step // what the release adds before letting it run
	if err != nil {
		tg.childFailed(e, follow, err, false)
		if tgt != nil {
			tgt.undebugged()
		}
		follow = false
		run = []step{skipPauses} // nothing will resume it: it must not stop
	} else {
		// Recorded before it runs: its first events belong to it (its span in the OTLP export).
		tg.record(Event{Kind: KindTarget, Target: ref, TargetInfo: tg.s.Tree().snapshot(e)})
	}
	// Also when it was known first from its banner (node 20's --test relays it as a TAP
	// comment): it may wait in the preload all the same.
	run = append(run, preloadGo)
	// A deadline of its own (letRun's): released must mean running, also when the set-up ran
	// out of time. Where the go-ahead may not have reached it, the preload lets it go.
	if err := letRun(c, run...); err != nil {
		tg.s.log.Debug("let child run", "session", tg.s.id, "target", ref, "err", err)
		if a.waits {
			tg.s.releaseUntraced(ref, a.PID)
		}
	}
	select {
	case <-waiting: // it has ended and waits for traced to hang up
	case <-c.Done():
	case <-ending:
		return // the session ended: the child runs on untraced
	}
	if follow {
		tg.lock()
		t.Status = TargetExited
		tg.unlock()
		tg.record(Event{Kind: KindTarget, Target: ref, TargetInfo: tg.s.Tree().snapshot(e)})
	}
}

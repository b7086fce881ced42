package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"traced/api"
)

// describe renders a message compactly for comparisons.
func describe(m api.StreamMessage) string {
	switch {
	case m.Type == api.MsgEvent && m.Event != nil:
		return fmt.Sprintf("%s/%d/%s", m.Session, m.Event.Seq, m.Event.Kind)
	case m.Type == api.MsgSession && m.Summary != nil:
		return fmt.Sprintf("session %s %s", m.Session, m.Summary.Status)
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func TestLiveEventsInOrderWithFilters(t *testing.T) {
	e := newEnv(t, Config{})
	e.src.add("a", 100)
	e.src.add("b", 100)
	subs := []struct {
		query string
		want  []string
	}{
		{"", []string{"a/1/console", "b/1/console", "a/2/stdout", "session a running", "a/3/exception",
			"b/2/stdout", "session b exited", "a/4/console"}},
		{"session=a", []string{"a/1/console", "a/2/stdout", "session a running", "a/3/exception", "a/4/console"}},
		{"session=a&kinds=console,exception", []string{"a/1/console", "session a running", "a/3/exception", "a/4/console"}},
	}
	conns := make([]*websocket.Conn, len(subs))
	for i, s := range subs {
		conns[i], _ = e.subscribe(t, s.query)
	}
	if n := e.hub.Subscribers(); n != len(subs) {
		t.Fatalf("Subscribers() = %d, want %d", n, len(subs))
	}

	e.src.append("a", "console", "one")
	e.src.append("b", "console", "one")
	e.src.append("a", "stdout", "two")
	e.hub.PublishStatus(api.Summary{ID: "a", Status: "running"})
	e.src.append("a", "exception", "three")
	e.src.append("b", "stdout", "two")
	e.hub.PublishStatus(api.Summary{ID: "b", Status: "exited"})
	e.src.append("a", "console", "four") // every subscriber's last message: nothing may come before it unasked

	for i, s := range subs {
		var got []string
		for range s.want {
			got = append(got, describe(readMsg(t, conns[i])))
		}
		if !slices.Equal(got, s.want) {
			t.Errorf("subscriber %q got\n%q\nwant\n%q", s.query, got, s.want)
		}
	}
}

// TestResumeReplaysThenLive resumes while a publisher runs: the replay and the live messages must
// join without a duplicate or a hole, including events published between the subscriber joining
// and its replay being read.
func TestResumeReplaysThenLive(t *testing.T) {
	e := newEnv(t, Config{QueueSize: 1024})
	e.src.add("s", 100_000)
	for range 100 {
		e.src.append("s", "stdout", "before")
	}
	e.src.beforeRetained = func() { // both queued live and retained: the replay must win, once
		for range 5 {
			e.src.append("s", "console", "in the window")
		}
	}
	const total = 3000
	p := newPacer(1, 256)
	published := make(chan struct{})
	go func() {
		defer close(published)
		for {
			n := e.src.newest("s")
			if n >= total || !p.wait(n+1) {
				return
			}
			e.src.append("s", "stdout", "live")
		}
	}()
	t.Cleanup(func() { p.halt(); <-published })

	c, _, err := e.dial(t, "session=s&after=50", nil)
	if err != nil {
		t.Fatal(err)
	}
	var live *api.StreamMessage
	for want := uint64(51); want <= total; {
		m := readMsg(t, c)
		switch m.Type {
		case api.MsgLive:
			if live != nil || m.Newest != want-1 {
				t.Fatalf("live message %+v at seq %d (earlier live: %v)", m, want, live)
			}
			live = &m
		case api.MsgEvent:
			if m.Event.Seq != want {
				t.Fatalf("event seq %d, want %d", m.Event.Seq, want)
			}
			p.saw(0, want)
			want++
		default:
			t.Fatalf("unexpected message %s", describe(m))
		}
	}
	if live == nil || live.Newest < 105 {
		t.Fatalf("live message %+v: want one after the replay of at least seq 105", live)
	}
	<-published
	e.src.append("s", "console", "last")
	if m := readMsg(t, c); m.Type != api.MsgEvent || m.Event.Seq != total+1 {
		t.Fatalf("after the run got %s, want event %d", describe(m), total+1)
	}
}

func TestResumeWindow(t *testing.T) {
	// The ring keeps 10 of 30 events: seqs 21..30.
	tests := []struct {
		name       string
		query      string
		wantGap    *api.Gap
		wantReplay []uint64
	}{
		{"cursor older than the ring", "session=s&after=5", &api.Gap{From: 6, To: 20}, seqs(21, 30)},
		{"cursor just before the ring", "session=s&after=20", nil, seqs(21, 30)},
		{"cursor inside the ring", "session=s&after=25", nil, seqs(26, 30)},
		{"cursor at the newest", "session=s&after=30", nil, nil},
		{"no cursor", "session=s", nil, nil},
		{"kinds filter the replay", "session=s&after=25&kinds=console", nil, []uint64{26, 28, 30}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, Config{})
			e.src.add("s", 10)
			for i := range 30 {
				kind := api.Kind("stdout")
				if i%2 == 1 {
					kind = "console"
				}
				e.src.append("s", kind, "x")
			}
			c, _, err := e.dial(t, tt.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			m := readMsg(t, c)
			if tt.wantGap != nil {
				if m.Type != api.MsgGap || m.Session != "s" || *m.Gap != *tt.wantGap {
					t.Fatalf("first message %s, want gap %+v", describe(m), *tt.wantGap)
				}
				m = readMsg(t, c)
			}
			var replay []uint64
			for ; m.Type == api.MsgEvent; m = readMsg(t, c) {
				replay = append(replay, m.Event.Seq)
			}
			if !slices.Equal(replay, tt.wantReplay) {
				t.Errorf("replayed %v, want %v", replay, tt.wantReplay)
			}
			if m.Type != api.MsgLive || m.Newest != 30 || m.Session != "s" {
				t.Fatalf("after the replay got %s, want live with newest 30", describe(m))
			}
			e.src.append("s", "console", "next")
			if m := readMsg(t, c); m.Type != api.MsgEvent || m.Event.Seq != 31 {
				t.Fatalf("live got %s, want event 31", describe(m))
			}
		})
	}
}

func seqs(from, to uint64) []uint64 {
	var s []uint64
	for i := from; i <= to; i++ {
		s = append(s, i)
	}
	return s
}

// TestSlowSubscriberClosed publishes many events while one subscriber never reads: it is closed
// with 1008 and a cursor to resume from, while the publisher never waits and a healthy
// subscriber receives every event.
func TestSlowSubscriberClosed(t *testing.T) {
	// The write timeout outlasts the test: the stalled write must end because the client reads
	// again, not because it timed out, so that the close frame can be seen.
	e := newEnv(t, Config{QueueSize: 16, WriteTimeout: time.Minute})
	e.src.add("s", 100)
	client, widen := smallWindowClient(t)
	slow, _ := e.subscribeWith(t, "session=s", &websocket.DialOptions{HTTPClient: client})
	healthy, _ := e.subscribe(t, "session=s")

	const n = 5000
	text := strings.Repeat("x", 2048) // 10 MB in all: more than the kernel buffers a stalled peer
	p := newPacer(1, 8)               // the healthy subscriber's queue of 16 never fills
	published := make(chan struct{})
	go func() {
		defer close(published)
		for seq := uint64(1); seq <= n && p.wait(seq); seq++ {
			e.src.append("s", "stdout", text)
		}
	}()
	t.Cleanup(func() { p.halt(); <-published })

	for want := uint64(1); want <= n; want++ {
		m := readMsg(t, healthy)
		if m.Type != api.MsgEvent || m.Event.Seq != want {
			t.Fatalf("healthy subscriber got %s, want event %d", describe(m), want)
		}
		p.saw(0, want)
	}
	select {
	case <-published:
	case <-time.After(waitFor):
		t.Fatal("the publisher is blocked")
	}

	// The slow subscriber reads what its connection buffered, then the close.
	widen()
	var last uint64
	for {
		m, err := tryRead(slow)
		if err != nil {
			var ce websocket.CloseError
			if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation {
				t.Fatalf("slow subscriber ended with %v, want close 1008", err)
			}
			if want := fmt.Sprintf("after=%d", last); !strings.Contains(ce.Reason, want) {
				t.Fatalf("close reason %q does not name the cursor %s", ce.Reason, want)
			}
			break
		}
		if m.Type != api.MsgEvent || m.Event.Seq != last+1 {
			t.Fatalf("slow subscriber got %s after seq %d", describe(m), last)
		}
		last = m.Event.Seq
	}
	if last >= n {
		t.Fatalf("the slow subscriber received all %d events: its queue never overflowed", n)
	}
	e.src.append("s", "console", "still here")
	if m := readMsg(t, healthy); m.Type != api.MsgEvent || m.Event.Seq != n+1 {
		t.Fatalf("healthy subscriber got %s after the slow one was closed", describe(m))
	}
}

func TestShutdownClosesGoingAway(t *testing.T) {
	e := newEnv(t, Config{})
	e.src.add("a", 10)
	ended := make(chan error, 2)
	for _, q := range []string{"", "session=a"} {
		c, _ := e.subscribe(t, q)
		go func() { _, err := tryRead(c); ended <- err }() // reading answers the close handshake
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	defer cancel()
	e.hub.Shutdown(ctx)
	for range 2 {
		if err := <-ended; websocket.CloseStatus(err) != websocket.StatusGoingAway {
			t.Errorf("subscriber ended with %v, want close 1001", err)
		}
	}
	if n := e.hub.Subscribers(); n != 0 {
		t.Errorf("Subscribers() = %d after Shutdown", n)
	}
	_, resp, err := e.dial(t, "", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("dial after Shutdown: %v, %v; want 503", err, resp)
	}
	checkErrorBody(t, resp, CodeShuttingDown)
}

func TestBadQueryRefusedBeforeUpgrade(t *testing.T) {
	e := newEnv(t, Config{})
	e.src.add("a", 10)
	tests := []struct {
		name, query string
		status      int
		code        string
	}{
		{"after not a number", "session=a&after=x", http.StatusBadRequest, CodeBadRequest},
		{"after negative", "session=a&after=-1", http.StatusBadRequest, CodeBadRequest},
		{"after without session", "after=3", http.StatusBadRequest, CodeBadRequest},
		{"empty kind", "kinds=console,,exception", http.StatusBadRequest, CodeBadRequest},
		{"trailing comma", "kinds=console,", http.StatusBadRequest, CodeBadRequest},
		{"unknown kind", "kinds=console,bogus", http.StatusBadRequest, CodeBadRequest},
		{"space in kinds", "kinds=console,%20exception", http.StatusBadRequest, CodeBadRequest},
		{"unknown session", "session=nope", http.StatusNotFound, CodeNotFound},
		{"unknown session with cursor", "session=nope&after=1", http.StatusNotFound, CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, resp, err := e.dial(t, tt.query, nil)
			if err == nil || resp == nil || resp.StatusCode != tt.status {
				t.Fatalf("dial: %v, %v; want status %d", err, resp, tt.status)
			}
			checkErrorBody(t, resp, tt.code)
		})
	}
	if n := e.hub.Subscribers(); n != 0 {
		t.Errorf("Subscribers() = %d after refusals", n)
	}
}

func checkErrorBody(t *testing.T, resp *http.Response, code string) api.ErrorDetail {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	var body api.ErrorBody
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("error body: %v", err)
	}
	if body.Error.Code != code || body.Error.Message == "" || body.Error.Hint == "" {
		t.Errorf("error body %+v, want code %q with a message and a hint", body.Error, code)
	}
	return body.Error
}

func TestOrigins(t *testing.T) {
	e := newEnv(t, Config{OriginPatterns: []string{"dash.example"}})
	origin := func(o string) *websocket.DialOptions {
		return &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {o}}}
	}
	if _, resp, err := e.dial(t, "", origin("http://evil.example")); err == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign origin: %v, %v; want 403", err, resp)
	}
	e.subscribeWith(t, "", origin("http://dash.example"))
}

// TestServerTimeoutsDoNotEndTheStream: the router's http.Server has read and write timeouts for
// requests; a stream outlives them.
func TestServerTimeoutsDoNotEndTheStream(t *testing.T) {
	e := newEnv(t, Config{})
	e.srv.Close()
	e.srv = httptest.NewUnstartedServer(e.hub)
	e.srv.Config.ReadTimeout = 50 * time.Millisecond
	e.srv.Config.WriteTimeout = 50 * time.Millisecond
	e.srv.Start()
	t.Cleanup(e.srv.Close)
	e.src.add("s", 10)
	c, _ := e.subscribe(t, "session=s")
	<-time.After(200 * time.Millisecond) // not synchronisation: the server's deadlines must pass
	e.src.append("s", "console", "late")
	if m := readMsg(t, c); m.Type != api.MsgEvent || m.Event.Seq != 1 {
		t.Fatalf("got %s, want event 1", describe(m))
	}
}

// TestSubscribeByName: a subscriber may name its session; it is matched, and every message it
// is sent names the session, by id, as publishers do.
func TestSubscribeByName(t *testing.T) {
	e := newEnv(t, Config{})
	e.src.addNamed("s1", "ticker", 2)
	e.src.add("s2", 10)
	for range 3 { // the ring keeps 2..3: seq 1 is a gap for after=0
		e.src.append("s1", "console", "before")
	}
	c, _, err := e.dial(t, "session=ticker&after=0&kinds=console", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for m := readMsg(t, c); ; m = readMsg(t, c) {
		if m.Type == api.MsgGap {
			got = append(got, fmt.Sprintf("gap %s %d..%d", m.Session, m.Gap.From, m.Gap.To))
			continue
		}
		if m.Type == api.MsgLive {
			got = append(got, fmt.Sprintf("live %s %d", m.Session, m.Newest))
			break
		}
		got = append(got, describe(m))
	}
	e.src.append("s2", "console", "another session's")
	e.src.append("s1", "stdout", "filtered out")
	e.hub.PublishStatus(api.Summary{ID: "s1", Name: "ticker", Status: "running"})
	e.src.append("s1", "console", "live")
	for range 2 {
		got = append(got, describe(readMsg(t, c)))
	}
	want := []string{"gap s1 1..1", "s1/2/console", "s1/3/console", "live s1 3", "session s1 running", "s1/5/console"}
	if !slices.Equal(got, want) {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// TestPlainRequestAnswersUpgradeRequired: a request that is not a WebSocket handshake gets the
// JSON error envelope with 426, not the library's text, and never joins.
func TestPlainRequestAnswersUpgradeRequired(t *testing.T) {
	e := newEnv(t, Config{})
	e.src.add("a", 10)
	tests := []struct {
		name    string
		query   string
		headers map[string]string
		status  int
		code    string
	}{
		{"plain GET", "session=a&kinds=console", nil, http.StatusUpgradeRequired, CodeUpgradeRequired},
		{"Upgrade without Connection", "", map[string]string{"Upgrade": "websocket"}, http.StatusUpgradeRequired, CodeUpgradeRequired},
		{"Connection without Upgrade", "", map[string]string{"Connection": "Upgrade"}, http.StatusUpgradeRequired, CodeUpgradeRequired},
		{"another protocol", "", map[string]string{"Connection": "Upgrade", "Upgrade": "h2c"}, http.StatusUpgradeRequired, CodeUpgradeRequired},
		// The query is checked first, so that it can be debugged without a WebSocket client.
		{"bad query", "kinds=bogus", nil, http.StatusBadRequest, CodeBadRequest},
		{"unknown session", "session=nope", nil, http.StatusNotFound, CodeNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest("GET", e.srv.URL+"/api/stream?"+tt.query, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.headers {
				req.Header.Set(k, v)
			}
			resp, err := e.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			if tt.status == http.StatusUpgradeRequired {
				if u := resp.Header.Get("Upgrade"); u != "websocket" {
					t.Errorf("426 with Upgrade %q, want websocket", u)
				}
			}
			body := checkErrorBody(t, resp, tt.code)
			want := "ws://" + e.srv.Listener.Addr().String() + "/api/stream"
			if tt.query != "" {
				want += "?" + tt.query
			}
			if tt.status == http.StatusUpgradeRequired && !strings.HasSuffix(body.Hint, want) {
				t.Errorf("hint %q does not end with the URL %s", body.Hint, want)
			}
		})
	}
	if n := e.hub.Subscribers(); n != 0 {
		t.Errorf("Subscribers() = %d after refusals", n)
	}
}

func TestIsHandshake(t *testing.T) {
	tests := []struct {
		connection, upgrade []string
		want                bool
	}{
		{[]string{"Upgrade"}, []string{"websocket"}, true},
		{[]string{"upgrade"}, []string{"WebSocket"}, true},
		{[]string{"keep-alive, Upgrade"}, []string{"websocket"}, true}, // Firefox
		{[]string{"keep-alive", "Upgrade"}, []string{"websocket"}, true},
		{[]string{"keep-alive,upgrade "}, []string{" websocket"}, true},
		{nil, nil, false},
		{[]string{"keep-alive"}, []string{"websocket"}, false},
		{[]string{"Upgraded"}, []string{"websocket"}, false},
		{[]string{"Upgrade"}, nil, false},
		{[]string{"Upgrade"}, []string{"h2c"}, false},
		{[]string{"Upgrade"}, []string{"websocket2"}, false},
	}
	for _, tt := range tests {
		h := http.Header{"Connection": tt.connection, "Upgrade": tt.upgrade}
		if got := isHandshake(h); got != tt.want {
			t.Errorf("isHandshake(Connection %q, Upgrade %q) = %v, want %v", tt.connection, tt.upgrade, got, tt.want)
		}
	}
}

func TestUpgradeHintMasksToken(t *testing.T) {
	r := httptest.NewRequest("GET", "http://127.0.0.1:7070/api/stream?session=a&token=secret", nil)
	got := wsURL(r)
	if strings.Contains(got, "secret") || !strings.HasPrefix(got, "ws://127.0.0.1:7070/api/stream?") || !strings.Contains(got, "session=a") {
		t.Errorf("wsURL = %q", got)
	}
}

// TestWantsMatchesTheFilters: Wants answers what PublishEvent would deliver, so a publisher that
// converts events only when wanted loses none a subscriber asked for.
func TestWantsMatchesTheFilters(t *testing.T) {
	e := newEnv(t, Config{})
	e.src.add("a", 100)
	e.src.add("b", 100)
	if e.hub.Wants("a", "console") {
		t.Fatal("Wants with no subscriber = true")
	}
	e.subscribe(t, "session=a&kinds=console")
	cases := []struct {
		session string
		kind    api.Kind
		want    bool
	}{
		{"a", "console", true}, {"a", "stdout", false}, {"b", "console", false},
	}
	for _, c := range cases {
		if got := e.hub.Wants(c.session, c.kind); got != c.want {
			t.Errorf("Wants(%q, %q) = %v, want %v", c.session, c.kind, got, c.want)
		}
	}
	e.subscribe(t, "")
	if !e.hub.Wants("b", "stdout") {
		t.Error("Wants(b, stdout) = false with a subscriber of everything")
	}
}

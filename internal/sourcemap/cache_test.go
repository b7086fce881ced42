package sourcemap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"sync/atomic"
	"testing"

	"go.uber.org/goleak"
)

// fakeFiles is a Loader.ReadFile over an in-memory file system that counts its reads. A file
// whose gate is set waits for the gate to close before it is read, and says so on started.
type fakeFiles struct {
	files   map[string][]byte
	gate    map[string]chan struct{}
	started chan string
	mu      sync.Mutex
	reads   map[string]int
}

func newFakeFiles() *fakeFiles {
	return &fakeFiles{files: map[string][]byte{}, gate: map[string]chan struct{}{}, reads: map[string]int{}, started: make(chan string, 100)}
}

func (f *fakeFiles) ReadFile(name string, max int64) ([]byte, error) {
	f.mu.Lock()
	f.reads[name]++
	gate := f.gate[name]
	data, ok := f.files[name]
	f.mu.Unlock()
	if gate != nil {
		f.started <- name
		<-gate
	}
	if !ok {
		return nil, fs.ErrNotExist
	}
	return data, nil
}

func (f *fakeFiles) readsOf(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads[name]
}

// scriptKey is the key of /app/<name>.js, whose map is /app/<name>.js.map.
func scriptKey(name string) Key {
	return Key{ScriptHash: "h-" + name, ScriptURL: "file:///app/" + name + ".js", SourceMapURL: name + ".js.map"}
}

func mapPath(name string) string { return "/app/" + name + ".js.map" }

func TestCacheLoadsOnceAndKeepsFailures(t *testing.T) {
	ff := newFakeFiles()
	ff.files[mapPath("ok")] = []byte(plain)
	ff.files[mapPath("bad")] = []byte(`{"version":3,"sources":["a.ts"],"mappings":"!"}`)
	c := NewCache(Loader{ReadFile: ff.ReadFile}, 0)
	ctx := context.Background()

	for _, tc := range []struct {
		name string
		want error // nil: a map
	}{
		{"ok", nil},
		{"bad", ErrInvalid},
		{"missing", fs.ErrNotExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m1, err1 := c.Get(ctx, scriptKey(tc.name))
			m2, err2 := c.Get(ctx, scriptKey(tc.name))
			if tc.want == nil {
				if err1 != nil || err2 != nil || m1 == nil || m1 != m2 {
					t.Fatalf("Get = %p, %v then %p, %v; want one map twice", m1, err1, m2, err2)
				}
			} else if !errors.Is(err1, tc.want) || err2 != err1 || m1 != nil || m2 != nil {
				t.Fatalf("Get = %v then %v; want the same error wrapping %v", err1, err2, tc.want)
			}
			if n := ff.readsOf(mapPath(tc.name)); n != 1 {
				t.Fatalf("%d reads, want 1", n)
			}
		})
	}

	// The same script URL with another hash is another script: its map is read again.
	k := scriptKey("ok")
	k.ScriptHash = "rebuilt"
	if _, err := c.Get(ctx, k); err != nil {
		t.Fatal(err)
	}
	if n := ff.readsOf(mapPath("ok")); n != 2 {
		t.Fatalf("%d reads after a rebuild, want 2", n)
	}

	// Forget makes the next Get read the file again: the map was fixed.
	ff.mu.Lock()
	ff.files[mapPath("bad")] = []byte(plain)
	ff.mu.Unlock()
	c.Forget(scriptKey("bad"))
	if _, err := c.Get(ctx, scriptKey("bad")); err != nil || ff.readsOf(mapPath("bad")) != 2 {
		t.Fatalf("after Forget: %v, %d reads", err, ff.readsOf(mapPath("bad")))
	}
}

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	ff := newFakeFiles()
	for _, n := range []string{"a", "b", "c", "huge"} {
		ff.files[mapPath(n)] = []byte(plain)
	}
	ff.files[mapPath("huge")] = bigMap(64 << 10)
	ctx := context.Background()
	one, err := Parse("file:///app/a.js.map", []byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	keyBytes := int64(len(scriptKey("a").ScriptHash + scriptKey("a").ScriptURL + scriptKey("a").SourceMapURL))
	per := one.Size() + keyBytes
	c := NewCache(Loader{ReadFile: ff.ReadFile}, 2*per) // room for two small maps

	get := func(name string) {
		t.Helper()
		if _, err := c.Get(ctx, scriptKey(name)); err != nil {
			t.Fatal(err)
		}
	}
	reads := func() string {
		return fmt.Sprint(ff.readsOf(mapPath("a")), ff.readsOf(mapPath("b")), ff.readsOf(mapPath("c")))
	}
	get("a")
	get("b")
	get("a") // a is now more recent than b
	get("c") // evicts b
	if got := reads(); got != "1 1 1" {
		t.Fatalf("reads %s, want 1 1 1", got)
	}
	get("a")
	get("c")
	if got := reads(); got != "1 1 1" {
		t.Fatalf("a and c were evicted: reads %s", got)
	}
	get("b") // evicted: read again, and evicts a
	if got := reads(); got != "1 2 1" {
		t.Fatalf("reads %s, want 1 2 1", got)
	}
	if c.used > c.budget || len(c.entries) != 2 || c.lru.Len() != 2 {
		t.Fatalf("used %d of %d, %d entries, %d in the list", c.used, c.budget, len(c.entries), c.lru.Len())
	}

	// A map over the whole budget is kept, alone.
	get("huge")
	get("huge")
	if n := ff.readsOf(mapPath("huge")); n != 1 || len(c.entries) != 1 {
		t.Fatalf("huge: %d reads, %d entries; want 1 and 1", n, len(c.entries))
	}
}

// TestCacheConcurrentGets: many Gets of one key while its load is held up load it once, and all
// get the same map; Gets of other keys go on meanwhile.
func TestCacheConcurrentGets(t *testing.T) {
	defer goleak.VerifyNone(t)
	ff := newFakeFiles()
	ff.files[mapPath("slow")] = []byte(plain)
	ff.gate[mapPath("slow")] = make(chan struct{})
	for i := range 20 {
		ff.files[mapPath(fmt.Sprint("other", i))] = []byte(plain)
	}
	c := NewCache(Loader{ReadFile: ff.ReadFile}, 2<<10) // room for some of the others: they evict each other
	ctx := context.Background()

	const n = 50
	maps := make([]*Map, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	var entered sync.WaitGroup
	entered.Add(n)
	for i := range n {
		wg.Go(func() {
			entered.Done()
			maps[i], errs[i] = c.Get(ctx, scriptKey("slow"))
		})
	}
	if got := <-ff.started; got != mapPath("slow") {
		t.Fatalf("started %s", got)
	}
	entered.Wait()
	// While slow is held up, other keys load and evict freely.
	var others atomic.Int32
	var owg sync.WaitGroup
	for i := range 20 {
		owg.Go(func() {
			for range 5 {
				if _, err := c.Get(ctx, scriptKey(fmt.Sprint("other", i))); err == nil {
					others.Add(1)
				}
			}
		})
	}
	owg.Wait()
	if len(c.entries) >= 21 {
		t.Fatalf("%d entries: the budget evicted nothing", len(c.entries))
	}
	close(ff.gate[mapPath("slow")])
	wg.Wait()

	for i := range n {
		if errs[i] != nil || maps[i] == nil || maps[i] != maps[0] {
			t.Fatalf("Get %d = %p, %v; Get 0 = %p", i, maps[i], errs[i], maps[0])
		}
	}
	if r := ff.readsOf(mapPath("slow")); r != 1 {
		t.Fatalf("%d reads of the slow map, want 1", r)
	}
	if others.Load() != 100 {
		t.Fatalf("%d of 100 other Gets succeeded", others.Load())
	}
}

// TestCacheCancel: a waiting Get returns when its context ends; a loading Get whose context
// ends is not kept as a failure, and the Get waiting on it loads the map itself.
func TestCacheCancel(t *testing.T) {
	defer goleak.VerifyNone(t)
	ff := newFakeFiles()
	ff.files[mapPath("slow")] = []byte(plain)
	gate := make(chan struct{})
	ff.gate[mapPath("slow")] = gate
	c := NewCache(Loader{ReadFile: ff.ReadFile}, 0)

	loaderCtx, cancelLoader := context.WithCancel(context.Background())
	loaderDone := make(chan error, 1)
	go func() {
		_, err := c.Get(loaderCtx, scriptKey("slow"))
		loaderDone <- err
	}()
	<-ff.started // the load is under way, and held up

	// A waiter that gives up returns at once, though the load goes on.
	waitCtx, cancelWait := context.WithCancel(context.Background())
	cancelWait()
	if _, err := c.Get(waitCtx, scriptKey("slow")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter: %v", err)
	}

	// A patient waiter; the loading caller gives up.
	waiterDone := make(chan error, 1)
	var waiterMap *Map
	go func() {
		var err error
		waiterMap, err = c.Get(context.Background(), scriptKey("slow"))
		waiterDone <- err
	}()
	cancelLoader()
	ff.mu.Lock()
	ff.gate[mapPath("slow")] = nil // the waiter's own load is not held up
	ff.mu.Unlock()
	close(gate)
	if err := <-loaderDone; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled loader: %v", err)
	}
	if err := <-waiterDone; err != nil || waiterMap == nil {
		t.Fatalf("waiter: %p, %v", waiterMap, err)
	}
	if r := ff.readsOf(mapPath("slow")); r != 2 {
		t.Fatalf("%d reads, want 2 (the cancelled load, then the waiter's)", r)
	}
	if m, err := c.Get(context.Background(), scriptKey("slow")); err != nil || m != waiterMap {
		t.Fatalf("after: %p, %v; want the waiter's map", m, err)
	}
}

// TestCachePanic: a load that panics leaves nothing behind, so the next Get loads again.
func TestCachePanic(t *testing.T) {
	var calls atomic.Int32
	read := func(string, int64) ([]byte, error) {
		if calls.Add(1) == 1 {
			panic("read failed badly")
		}
		return []byte(plain), nil
	}
	c := NewCache(Loader{ReadFile: read}, 0)
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the panic was swallowed")
			}
		}()
		c.Get(context.Background(), scriptKey("p"))
	}()
	if m, err := c.Get(context.Background(), scriptKey("p")); err != nil || m == nil || calls.Load() != 2 {
		t.Fatalf("after a panic: %p, %v, %d reads", m, err, calls.Load())
	}
}

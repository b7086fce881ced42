package sourcemap

import (
	"container/list"
	"context"
	"errors"
	"sync"
)

// DefaultCacheBudget is the bytes of maps (by [Map.Size]) a [Cache] keeps when given no budget:
// room for a few of the largest maps DefaultMaxBytes lets in, or hundreds of a small project's.
const DefaultCacheBudget = 256 << 20

// failureSize is what a cached failure counts against the budget, in bytes, besides its key: an
// estimate of the entry and its error, so that a flood of scripts without maps is bounded too.
const failureSize = 256

// Key identifies a script's source map. The hash (Debugger.scriptParsed's) tells a rebuilt script
// from the one before it at the same URL; the URLs say where the map is.
type Key struct {
	ScriptHash   string `json:"scriptHash"`
	ScriptURL    string `json:"scriptURL"`
	SourceMapURL string `json:"sourceMapURL"`
}

// Cache loads source maps lazily, once per [Key], and keeps them within a byte budget, evicting
// the least recently used. It keeps failures too, with their error: a missing or corrupt map is
// read once, not on every position lookup, and the error says why positions stay generated.
//
// Any number of goroutines may call its methods. One mutex guards the entries and the LRU list;
// it is never held while loading. A Get that finds its key loading waits on the entry's ready
// channel (or its own context) instead of loading it again.
type Cache struct {
	loader Loader
	budget int64

	mu      sync.Mutex
	entries map[Key]*entry // loading and loaded
	lru     list.List      // of *entry, loaded ones only, most recently used first
	used    int64          // sum of the loaded entries' size
}

// entry is one key's map or failure. m, err and abandoned are written once, before ready is
// closed, and read only after; the other fields are guarded by Cache.mu.
type entry struct {
	key   Key
	ready chan struct{}
	m     *Map
	err   error

	loaded bool // m and err are final and the entry is in the LRU list
	// abandoned: the load ended without an answer to keep (its caller gave up, or it panicked);
	// the entry left the cache, and waiters load again.
	abandoned bool
	size      int64
	elem      *list.Element
}

// NewCache returns a cache that loads maps with loader and keeps at most budget bytes of them
// ([DefaultCacheBudget] when budget <= 0). A map larger than the whole budget is still kept,
// alone, rather than loaded again on every lookup.
func NewCache(loader Loader, budget int64) *Cache {
	if budget <= 0 {
		budget = DefaultCacheBudget
	}
	return &Cache{loader: loader, budget: budget, entries: make(map[Key]*entry)}
}

// Get returns key's map, loading it on first use, or the error its load ended with. Concurrent
// Gets of one key load it once: the first loads, the others wait. A waiting Get returns ctx's
// error as soon as ctx ends; the loading one when the loader next looks at ctx (before reading
// and before parsing). That error is not kept: a Get still waiting then loads the map itself.
func (c *Cache) Get(ctx context.Context, key Key) (*Map, error) {
	for {
		c.mu.Lock()
		e, ok := c.entries[key]
		if ok && e.loaded {
			c.lru.MoveToFront(e.elem)
			c.mu.Unlock()
			return e.m, e.err
		}
		if !ok {
			e = &entry{key: key, ready: make(chan struct{})}
			c.entries[key] = e
			c.mu.Unlock()
			c.load(ctx, e)
			return e.m, e.err
		}
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if !e.abandoned {
			return e.m, e.err
		}
	}
}

// Forget drops key's map or failure, so that the next Get loads it again (after the map file is
// fixed, say). A load in flight is not affected.
func (c *Cache) Forget(key Key) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[key]; ok && e.loaded {
		c.remove(e)
	}
}

// load loads e's map and publishes the result to e's waiters.
func (c *Cache) load(ctx context.Context, e *entry) {
	done := false
	defer func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		defer close(e.ready)
		switch {
		case !done:
			e.abandoned = true // Load panicked; the panic goes on up this caller's stack
		case e.err != nil && ctx.Err() != nil && errors.Is(e.err, ctx.Err()):
			// The caller gave up, which says nothing about the map.
			e.abandoned = true
		}
		if e.abandoned {
			delete(c.entries, e.key)
			return
		}
		e.size = int64(len(e.key.ScriptHash) + len(e.key.ScriptURL) + len(e.key.SourceMapURL))
		if e.m != nil {
			e.size += e.m.Size()
		} else {
			e.size += failureSize + int64(len(e.err.Error()))
		}
		e.loaded = true
		e.elem = c.lru.PushFront(e)
		c.used += e.size
		for c.used > c.budget && c.lru.Back() != e.elem {
			c.remove(c.lru.Back().Value.(*entry))
		}
	}()
	e.m, e.err = c.loader.Load(ctx, e.key.ScriptURL, e.key.SourceMapURL)
	done = true
}

// remove drops a loaded entry. c.mu must be held.
func (c *Cache) remove(e *entry) {
	c.lru.Remove(e.elem)
	e.elem = nil
	c.used -= e.size
	delete(c.entries, e.key)
}

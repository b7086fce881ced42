package tests

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"traced/api"
	"traced/internal/service"
)

// swapTries bounds the starts raced against a swapping directory; without the guard a few
// (3-9) were enough for one to run the outside script.
const swapTries = 40

// TestSwappedDirectoryNeverRunsOutside: while a directory of the target's path is swapped again
// and again for a symlink to a directory outside the root, no start runs the script there: each
// either runs the checked script, or is refused (at the start, or by the guard before any of
// the program runs). Node reads an ES module main later than a CommonJS one (its own loader, after
// the preload), where only the guard's module hooks see it.
func TestSwappedDirectoryNeverRunsOutside(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, main, pkg, inside, outside string }{
		{"commonjs", "x.js", "", `console.log("inside");`, `require("fs").writeFileSync(MARKER, "ran"); console.log("outside");`},
		{"mjs", "x.mjs", "", `console.log("inside");`, `import fs from "node:fs"; fs.writeFileSync(MARKER, "ran"); console.log("outside");`},
		{"type-module", "x.js", `{"type":"module"}`, `console.log("inside");`, `import fs from "node:fs"; fs.writeFileSync(MARKER, "ran"); console.log("outside");`},
	} {
		t.Run(c.name, func(t *testing.T) {
			swapRace(t, c.main, c.pkg, c.inside, c.outside)
		})
	}
}

// swapRace starts d/main again and again while d is swapped for a symlink to a directory that
// holds main too, whose script (MARKER replaced) leaves a marker when it runs; pkg, when set,
// is the package.json of both.
func swapRace(t *testing.T, main, pkg, inside, outside string) {
	root, elsewhere := t.TempDir(), t.TempDir()
	marker := filepath.Join(elsewhere, "ran")
	write := func(path, src string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	quoted, _ := json.Marshal(marker)
	write(filepath.Join(root, "d", main), inside+"\n")
	write(filepath.Join(elsewhere, main), strings.ReplaceAll(outside, "MARKER", string(quoted))+"\n")
	if pkg != "" {
		write(filepath.Join(root, "d", "package.json"), pkg)
		write(filepath.Join(elsewhere, "package.json"), pkg)
	}
	h := newHarness(t, func(o *service.Options) { o.Engine.Root = root })

	d, parked := filepath.Join(root, "d"), filepath.Join(root, "d.real")
	stop := make(chan struct{})
	var swapper sync.WaitGroup
	swapper.Add(1)
	go func() { // d is a symlink to elsewhere half of the time
		defer swapper.Done()
		defer func() { os.Remove(d); os.Rename(parked, d) }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			// Each form dwells 2 ms, the attack's shape (nothing waits on it): a check that sees
			// the directory is often followed by a spawn that meets the link.
			if os.Rename(d, parked) == nil && os.Symlink(elsewhere, d) == nil {
				time.Sleep(2 * time.Millisecond)
				os.Remove(d)
			}
			os.Rename(parked, d)
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var ran, refused int
	for range swapTries {
		st, body := h.send(h.request("POST", "/api/trace/start", api.StartRequest{Target: "d/" + main}))
		if st != http.StatusCreated {
			if refused == 0 {
				t.Logf("a refused start: %d %s", st, body)
			}
			refused++
			continue
		}
		var res api.SessionResponse
		if err := json.Unmarshal(body, &res); err != nil {
			t.Fatal(err)
		}
		if sum := h.waitExit(res.Session.ID); sum.ExitCode != nil && *sum.ExitCode == 0 {
			ran++
		} else {
			refused++
		}
		if _, err := os.Stat(marker); err == nil {
			break
		}
	}
	close(stop)
	swapper.Wait()
	if _, err := os.Stat(marker); err == nil {
		t.Fatalf("a start ran the script outside the root (%d ran inside, %d refused before)", ran, refused)
	}
	t.Logf("%d ran the checked script, %d were refused", ran, refused)
}

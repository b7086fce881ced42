package tests

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
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
// the program runs).
func TestSwappedDirectoryNeverRunsOutside(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	marker := filepath.Join(outside, "ran")
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
	write(filepath.Join(root, "d", "x.js"), `console.log("inside");`+"\n")
	write(filepath.Join(outside, "x.js"), `require("fs").writeFileSync(`+string(quoted)+`, "ran"); console.log("outside");`+"\n")
	h := newHarness(t, func(o *service.Options) { o.Engine.Root = root })

	d, parked := filepath.Join(root, "d"), filepath.Join(root, "d.real")
	stop := make(chan struct{})
	var swapper sync.WaitGroup
	swapper.Add(1)
	go func() { // d is a symlink to outside half of the time
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
			if os.Rename(d, parked) == nil && os.Symlink(outside, d) == nil {
				time.Sleep(2 * time.Millisecond)
				os.Remove(d)
			}
			os.Rename(parked, d)
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var inside, refused int
	for range swapTries {
		st, body := h.send(h.request("POST", "/api/trace/start", api.StartRequest{Target: "d/x.js"}))
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
			inside++
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
		t.Fatalf("a start ran the script outside the root (%d ran inside, %d refused before)", inside, refused)
	}
	t.Logf("%d ran the checked script, %d were refused", inside, refused)
}

package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"traced/internal/cdp"
	"traced/internal/engine/launch"
	"traced/internal/engine/proctree"
)

// NodeFeatures are what the node in use can do that differs between its lines (20 to 26).
type NodeFeatures struct {
	Version string `json:"version"`
	// LiveEdit: Debugger.setScriptSource replaces a running script's code (hot-patch); node 26
	// removed it.
	LiveEdit bool `json:"liveEdit"`
	// TypeScript is how node runs a .ts file by itself: "strip" (types erased, positions kept;
	// 22.18+ by default), "transform", or "" when it does not.
	TypeScript string `json:"typescript,omitempty"`
}

// nodeProbe asks an in-process inspector session whether setScriptSource still works (a dry
// run on a script of its own) and prints what node says of itself.
const nodeProbe = `
const inspector = require('inspector');
const s = new inspector.Session();
s.connect();
let id;
s.on('Debugger.scriptParsed', (m) => { if (m.params.url === 'traced-probe.js') id = m.params.scriptId; });
s.post('Debugger.enable', () => {
  require('vm').runInThisContext('function tracedProbe() { return 1 }', { filename: 'traced-probe.js' });
  s.post('Debugger.setScriptSource', { scriptId: id, scriptSource: 'function tracedProbe() { return 2 }', dryRun: true }, (err) => {
    const ts = process.features && process.features.typescript;
    console.log(JSON.stringify({ version: process.version, liveEdit: !err, typescript: typeof ts === 'string' ? ts : '' }));
  });
});`

// nodeProbeTimeout bounds the probe: node starts in about 50 ms.
const nodeProbeTimeout = 10 * time.Second

// ProbeNode runs node once to learn its version and features.
func ProbeNode(ctx context.Context, nodePath string) (NodeFeatures, error) {
	ctx, cancel := context.WithTimeout(ctx, nodeProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodePath, "-e", nodeProbe)
	cmd.Env = launch.ChildEnv(os.Environ(), nil)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := proctree.Owned.Run(cmd); err != nil { // a subreaper's reaper must not take its status
		return NodeFeatures{}, fmt.Errorf("probe node %s: %w", nodePath, err)
	}
	out := stdout.Bytes()
	var f NodeFeatures
	if err := json.Unmarshal(out, &f); err != nil {
		return NodeFeatures{}, fmt.Errorf("probe node %s: %w: %q", nodePath, err, out)
	}
	return f, nil
}

// NodeFeatures reports the node in use, probed on first use (the zero value when there is no
// node or the probe failed; the log says why).
func (m *Manager) NodeFeatures() NodeFeatures {
	m.featuresOnce.Do(func() {
		if m.cfg.NodePath == "" {
			return
		}
		f, err := ProbeNode(context.Background(), m.cfg.NodePath)
		if err != nil {
			m.log.Warn("node feature probe failed", "err", err)
			f = NodeFeatures{Version: m.nodeVersion}
		}
		m.features = f
	})
	return m.features
}

// ErrNoLiveEdit: the node in use cannot replace a running script's code (node 26 removed
// Debugger.setScriptSource).
var ErrNoLiveEdit = errors.New("live edit is not available in this node")

// liveEditGone reports V8's refusal of setScriptSource in a node without live edit: -32000
// "setScriptSource functionality no longer available".
func liveEditGone(err error) bool {
	var pe *cdp.Error
	return errors.As(err, &pe) && strings.Contains(pe.Message, "no longer available")
}

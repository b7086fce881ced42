package proto

// The NodeRuntime domain: node's process-level notifications.

// Events.
const (
	EventWaitingForDisconnect = "NodeRuntime.waitingForDisconnect"
	EventWaitingForDebugger   = "NodeRuntime.waitingForDebugger"
)

// NodeRuntimeEnable turns the domain on (waitingForDebugger is reported).
type NodeRuntimeEnable struct{}

// NodeRuntimeNotifyWhenWaitingForDisconnect makes node, at its end, wait for the debugger to
// hang up and say so (waitingForDisconnect).
type NodeRuntimeNotifyWhenWaitingForDisconnect struct {
	Enabled bool `json:"enabled"`
}

func (NodeRuntimeEnable) Method() string { return "NodeRuntime.enable" }
func (NodeRuntimeNotifyWhenWaitingForDisconnect) Method() string {
	return "NodeRuntime.notifyWhenWaitingForDisconnect"
}

package proto

// The NodeWorker domain: node's worker threads, each a session tunnelled through its parent's.

// Events.
const (
	EventAttachedToWorker          = "NodeWorker.attachedToWorker"
	EventDetachedFromWorker        = "NodeWorker.detachedFromWorker"
	EventReceivedMessageFromWorker = "NodeWorker.receivedMessageFromWorker"
)

// NodeWorkerEnable reports workers; with WaitForDebuggerOnStart each waits for its debugger.
type NodeWorkerEnable struct {
	WaitForDebuggerOnStart bool `json:"waitForDebuggerOnStart"`
}

// NodeWorkerDetach ends the session of a worker.
type NodeWorkerDetach struct {
	SessionID string `json:"sessionId"`
}

// NodeWorkerSendMessageToWorker carries one CDP message to a worker's session.
type NodeWorkerSendMessageToWorker struct {
	SessionID string `json:"sessionId"`
	Message   string `json:"message"`
}

func (NodeWorkerEnable) Method() string              { return "NodeWorker.enable" }
func (NodeWorkerDetach) Method() string              { return "NodeWorker.detach" }
func (NodeWorkerSendMessageToWorker) Method() string { return "NodeWorker.sendMessageToWorker" }

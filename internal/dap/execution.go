package dap

import (
	godap "github.com/google/go-dap"

	"traced/api"
	"traced/internal/apiclient"
)

// run sends an execution call of a thread, answered at once (waitMs 0): the stop it leads to
// comes as a stopped event from the stream. reason is what that stop is called ("" for none).
func (s *Server) run(threadID int, route, reason string, body any) error {
	sid, rest, err := s.session()
	if err != nil {
		return err
	}
	target := targetOf(threadID)
	s.mu.Lock()
	if reason != "" {
		s.st.steps[target] = reason
	}
	s.st.resumed(target)
	s.mu.Unlock()
	return rest.do(s.ctx, "POST", apiclient.DebugPath(sid, route), targetQuery(target), body, nil)
}

func (s *Server) onContinue(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.ContinueRequest)
	if err := s.run(r.Arguments.ThreadId, "continue", "", api.ContinueRequest{WaitMs: new(int64)}); err != nil {
		return nil, err
	}
	return &godap.ContinueResponse{Response: response(&r.Request)}, nil
}

func (s *Server) step(threadID int, kind string) error {
	return s.run(threadID, "step", "step", api.StepRequest{Kind: kind, WaitMs: new(int64)})
}

func (s *Server) onNext(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.NextRequest)
	if err := s.step(r.Arguments.ThreadId, api.StepOver); err != nil {
		return nil, err
	}
	return &godap.NextResponse{Response: response(&r.Request)}, nil
}

func (s *Server) onStepIn(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.StepInRequest)
	if err := s.step(r.Arguments.ThreadId, api.StepInto); err != nil {
		return nil, err
	}
	return &godap.StepInResponse{Response: response(&r.Request)}, nil
}

func (s *Server) onStepOut(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.StepOutRequest)
	if err := s.step(r.Arguments.ThreadId, api.StepOut); err != nil {
		return nil, err
	}
	return &godap.StepOutResponse{Response: response(&r.Request)}, nil
}

func (s *Server) onPause(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.PauseRequest)
	if err := s.run(r.Arguments.ThreadId, "pause", "pause", api.PauseRequest{WaitMs: new(int64)}); err != nil {
		return nil, err
	}
	return &godap.PauseResponse{Response: response(&r.Request)}, nil
}

func (s *Server) onRestartFrame(m godap.RequestMessage) (godap.ResponseMessage, error) {
	r := m.(*godap.RestartFrameRequest)
	f, err := s.frame(r.Arguments.FrameId)
	if err != nil {
		return nil, err
	}
	if err := s.run(threadID(f.target), "restart-frame", "restart", api.RestartFrameRequest{Frame: f.index, WaitMs: new(int64)}); err != nil {
		return nil, err
	}
	return &godap.RestartFrameResponse{Response: response(&r.Request)}, nil
}

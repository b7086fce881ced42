package routes

import (
	"traced/api"
	"traced/internal/engine"
)

// redactAnswer hides secrets in a debugger answer (locals, values, properties, source lines),
// counting them in the session's total; events are redacted as they are stored (the engine).
func redactAnswer(s *engine.Session, v any) any {
	switch x := v.(type) {
	case api.State:
		redactState(s, &x)
		return x
	case *api.State:
		if x != nil {
			redactState(s, x)
		}
	case api.EvalResult:
		x.Value, x.Exception = s.Redact(x.Value), s.Redact(x.Exception)
		return x
	case api.VarsResponse:
		x.Variables = redactVars(s, x.Variables)
		return x
	case api.Props:
		x.Value = s.Redact(x.Value)
		x.Properties = redactProps(s, x.Properties)
		return x
	case api.Instances:
		x.Instances = redactProps(s, x.Instances)
		return x
	case api.AliveReport: // a child's command line may carry a token
		x.Text = s.Redact(x.Text)
		for i := range x.Targets {
			x.Targets[i].Keeping = redactHandles(s, x.Targets[i].Keeping)
			x.Targets[i].NotKeeping = redactHandles(s, x.Targets[i].NotKeeping)
		}
		return x
	case api.WaitResponse:
		x.StillRunning = s.Redact(x.StillRunning)
		return x
	}
	return v
}

func redactHandles(s *engine.Session, hs []api.AliveHandle) []api.AliveHandle {
	out := make([]api.AliveHandle, len(hs)) // never nil: an empty list is an answer
	copy(out, hs)
	for i := range out {
		out[i].Command = s.Redact(out[i].Command)
	}
	return out
}

func redactState(s *engine.Session, st *api.State) {
	st.Locals = redactVars(s, st.Locals)
	if rv := st.ReturnValue; rv != nil {
		c := *rv
		c.Value = s.RedactValue(c.Name, c.Type, c.Value)
		st.ReturnValue = &c
	}
	if len(st.Source) > 0 {
		src := append([]api.SourceLine(nil), st.Source...)
		for i := range src {
			src[i].Text = s.Redact(src[i].Text)
		}
		st.Source = src
	}
}

func redactVars(s *engine.Session, vars []api.Variable) []api.Variable {
	if len(vars) == 0 {
		return vars
	}
	out := append([]api.Variable(nil), vars...)
	for i := range out {
		out[i].Value = s.RedactValue(out[i].Name, out[i].Type, out[i].Value)
	}
	return out
}

func redactProps(s *engine.Session, props []api.Property) []api.Property {
	if len(props) == 0 {
		return props
	}
	out := append([]api.Property(nil), props...)
	for i := range out {
		out[i].Value = s.RedactValue(out[i].Name, out[i].Type, out[i].Value)
		out[i].Properties = redactProps(s, out[i].Properties)
	}
	return out
}

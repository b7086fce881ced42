package convert

import (
	"traced/api"
	"traced/internal/evidence"
)

// FromEvidenceResult converts evidence.Result to its wire type.
func FromEvidenceResult(x evidence.Result) api.EvidenceResult {
	return api.EvidenceResult{
		Evidence: FromEvidencePtr(x.Evidence),
		Reason:   x.Reason,
	}
}

// FromEvidence converts evidence.Evidence to its wire type.
func FromEvidence(x evidence.Evidence) api.Evidence {
	return api.Evidence{
		Failure:                  FromFailure(x.Failure),
		ImmediateCause:           FromItemPtr(x.ImmediateCause),
		PreviousStateTransitions: FromItems(x.PreviousStateTransitions),
		OriginatingValue:         FromEvidenceValue(x.OriginatingValue),
		RelevantInput:            FromRelevantInput(x.RelevantInput),
		Confidence:               api.Confidence(x.Confidence),
		ConfidenceReason:         x.ConfidenceReason,
		Caveat:                   x.Caveat,
		FailingTests:             FromFailingTests(x.FailingTests),
		FailingTestsOmitted:      x.FailingTestsOmitted,
	}
}

// FromFailingTests converts the failing tests to their wire type.
func FromFailingTests(xs []evidence.FailingTest) []api.FailingTest {
	if xs == nil {
		return nil
	}
	out := make([]api.FailingTest, len(xs))
	for i, x := range xs {
		out[i] = api.FailingTest{
			Name: x.Name, Runner: x.Runner, Location: FromFramePtr(x.Location), Class: x.Class, Message: x.Message,
			Expected: x.Expected, Received: x.Received, Locals: FromVariables(x.Locals), Target: x.Target,
			ThrowSeq: x.ThrowSeq, ReportSeq: x.ReportSeq,
		}
	}
	return out
}

// FromFailure converts evidence.Failure to its wire type.
func FromFailure(x evidence.Failure) api.Failure {
	return api.Failure{
		Kind:      api.FailureKind(x.Kind),
		Seq:       x.Seq,
		Target:    x.Target,
		Class:     x.Class,
		Message:   x.Message,
		Location:  FromFramePtr(x.Location),
		Stack:     FromFrames(x.Stack),
		ExitCode:  x.ExitCode,
		Signal:    x.Signal,
		Test:      x.Test,
		LoggedSeq: x.LoggedSeq,
	}
}

// FromEvidenceItem converts evidence.Item to its wire type.
func FromEvidenceItem(x evidence.Item) api.EvidenceItem {
	return api.EvidenceItem{
		Seq:      x.Seq,
		Kind:     api.Kind(x.Kind),
		Target:   x.Target,
		Summary:  x.Summary,
		Location: FromFramePtr(x.Location),
	}
}

// FromEvidenceValue converts evidence.Value to its wire type.
func FromEvidenceValue(x evidence.Value) api.EvidenceValue {
	return api.EvidenceValue{
		Locals:   FromVariables(x.Locals),
		Class:    x.Class,
		Value:    x.Value,
		Message:  x.Message,
		ExitCode: x.ExitCode,
		Signal:   x.Signal,
	}
}

// FromRelevantInput converts evidence.RelevantInput to its wire type.
func FromRelevantInput(x evidence.RelevantInput) api.RelevantInput {
	return api.RelevantInput{
		Target: x.Target,
		Argv:   x.Argv,
		Cwd:    x.Cwd,
	}
}

package convert

import (
	"traced/api"
	"traced/internal/engine"
)

// FromSourceView converts engine.SourceView to its wire type.
func FromSourceView(x engine.SourceView) api.SourceView {
	return api.SourceView{
		File:      x.File,
		Total:     x.Total,
		Lines:     FromSourceLines(x.Lines),
		Truncated: x.Truncated,
	}
}

// FromMatch converts engine.Match to its wire type.
func FromMatch(x engine.Match) api.Match {
	return api.Match{
		File: x.File,
		Line: x.Line,
		Text: x.Text,
	}
}

// FromContextView converts engine.ContextView to its wire type.
func FromContextView(x engine.ContextView) api.ContextView {
	return api.ContextView{
		ContextInfo: FromContextInfo(x.ContextInfo),
		Main:        x.Main,
	}
}

// FromProperty converts engine.Property to its wire type.
func FromProperty(x engine.Property) api.Property {
	return api.Property{
		Name:       x.Name,
		Kind:       x.Kind,
		Type:       x.Type,
		Value:      x.Value,
		Ref:        x.Ref,
		Expand:     x.Expand,
		Properties: FromPropertys(x.Properties),
	}
}

// FromProps converts engine.Props to its wire type.
func FromProps(x engine.Props) api.Props {
	return api.Props{
		Ref:        x.Ref,
		Value:      x.Value,
		Properties: FromPropertys(x.Properties),
		Truncated:  x.Truncated,
		Session:    x.Session,
		Target:     x.Target,
	}
}

// FromInstances converts engine.Instances to its wire type.
func FromInstances(x engine.Instances) api.Instances {
	return api.Instances{
		Prototype: x.Prototype,
		Count:     x.Count,
		Ref:       x.Ref,
		Instances: FromPropertys(x.Instances),
	}
}

package api

// Inspection answers: source views, search matches, contexts, properties and instances.

// SourceView is a piece of a script's source.
type SourceView struct {
	File      string       `json:"file"`
	Total     int          `json:"total"` // lines in the script
	Lines     []SourceLine `json:"lines"`
	Truncated bool         `json:"truncated,omitempty"` // cut at maxViewLines
}

// Match is a line of a script that matched a search.
type Match struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

// ContextView is a live execution context.
type ContextView struct {
	ContextInfo
	Main bool `json:"main,omitempty"` // the program's own context
}

// Property is one property of an object, previewed, with an o ref when it is an object.
type Property struct {
	Name       string     `json:"name"`
	Kind       string     `json:"kind"` // own, inherited, internal, private, accessor, context (a closure variable)
	Type       string     `json:"type"`
	Value      string     `json:"value"`
	Ref        string     `json:"ref,omitempty"`
	Expand     string     `json:"expand,omitempty"`     // the call that shows what the preview left out
	Properties []Property `json:"properties,omitempty"` // expanded, with depth > 1
}

// Props answers the object a ref names and its properties.
type Props struct {
	Ref        string     `json:"ref"` // the object's o ref
	Value      string     `json:"value"`
	Properties []Property `json:"properties"`
	Truncated  int        `json:"truncated,omitempty"` // properties left out past maxProps
	Session    string     `json:"session,omitempty"`
	Target     string     `json:"target,omitempty"` // in a session with more than one target to debug
}

// Instances answers the live objects of a prototype.
type Instances struct {
	Prototype string     `json:"prototype"`
	Count     int        `json:"count"`
	Ref       string     `json:"ref"`       // o ref of the array of them all
	Instances []Property `json:"instances"` // the first ones, with o refs
}

// Package v8 declares the values the V8 inspector sends over CDP (the Runtime domain's
// RemoteObject and its shallow previews) as plain structs, for the packages that decode and
// render them. Enums are plain strings: a newer V8 sends values an older list would not know.
// Field names follow the devtools-protocol JSON.
package v8

// RemoteObject is a mirror of a JavaScript value (Runtime.RemoteObject).
type RemoteObject struct {
	Type                string         `json:"type"`
	Subtype             string         `json:"subtype,omitempty"`
	ClassName           string         `json:"className,omitempty"`
	Value               any            `json:"value,omitempty"`
	UnserializableValue string         `json:"unserializableValue,omitempty"`
	Description         string         `json:"description,omitempty"`
	ObjectID            string         `json:"objectId,omitempty"`
	Preview             *ObjectPreview `json:"preview,omitempty"`
}

// ObjectPreview is V8's shallow preview of an object (Runtime.ObjectPreview).
type ObjectPreview struct {
	Type        string            `json:"type"`
	Subtype     string            `json:"subtype,omitempty"`
	Description string            `json:"description,omitempty"`
	Overflow    bool              `json:"overflow"`
	Properties  []PropertyPreview `json:"properties"`
	Entries     []EntryPreview    `json:"entries,omitempty"`
}

// PropertyPreview is one property of an ObjectPreview (Runtime.PropertyPreview).
type PropertyPreview struct {
	Name         string         `json:"name"`
	Type         string         `json:"type"`
	Value        string         `json:"value,omitempty"`
	ValuePreview *ObjectPreview `json:"valuePreview,omitempty"`
	Subtype      string         `json:"subtype,omitempty"`
}

// EntryPreview is one entry of a Map or Set preview; Key is nil for a Set (Runtime.EntryPreview).
type EntryPreview struct {
	Key   *ObjectPreview `json:"key,omitempty"`
	Value ObjectPreview  `json:"value"`
}

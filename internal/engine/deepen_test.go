package engine

import "testing"

// TestHasNested: an object whose preview names a nested object it does not show is deepened;
// node's CommonJS module object, a shallow one and a primitive are not.
func TestHasNested(t *testing.T) {
	nested := &objectPreview{Properties: []propertyPreview{{Name: "cfg", Type: "object"}}}
	flat := &objectPreview{Properties: []propertyPreview{{Name: "n", Type: "number", Value: "1"}}}
	for _, c := range []struct {
		name string
		o    remoteObject
		want bool
	}{
		{"nested", remoteObject{Type: "object", ClassName: "Object", ObjectID: "1", Preview: nested}, true},
		{"module", remoteObject{Type: "object", ClassName: "Module", ObjectID: "2", Preview: nested}, false},
		{"flat", remoteObject{Type: "object", ClassName: "Object", ObjectID: "3", Preview: flat}, false},
		{"number", remoteObject{Type: "number"}, false},
	} {
		if got := hasNested(c.o); got != c.want {
			t.Errorf("%s: %t, want %t", c.name, got, c.want)
		}
	}
}

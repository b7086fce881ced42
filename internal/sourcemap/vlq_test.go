package sourcemap

import (
	"errors"
	"testing"
)

func FuzzVLQ(f *testing.F) {
	for _, s := range []string{"A", "C", "D", "gB", "+/", "//////9", "hgggggE", "!"} {
		f.Add(s, int32(0))
	}
	for _, v := range []int32{-1 << 31, 1<<31 - 1, vlqMaxMagnitude, -vlqMaxMagnitude, vlqMaxMagnitude + 1, -vlqMaxMagnitude - 1} {
		f.Add("", v)
	}
	f.Fuzz(func(t *testing.T, s string, v int32) {
		decodeVLQ(s, 0) // never panics
		_, _ = decodeMappings(s, 3, func(segment) {})
		enc := string(appendVLQ(nil, v))
		got, next, err := decodeVLQ(enc, 0)
		if v > vlqMaxMagnitude || v < -vlqMaxMagnitude {
			// go-sourcemap would misread it.
			if !errors.Is(err, errVLQOverflow) {
				t.Fatalf("%d encodes as %q, decodes to %d, %v; want an overflow", v, enc, got, err)
			}
			return
		}
		if err != nil || got != v || next != len(enc) {
			t.Fatalf("%d encodes as %q, decodes to %d, %d, %v", v, enc, got, next, err)
		}
	})
}

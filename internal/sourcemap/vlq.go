package sourcemap

import "errors"

// Base64 VLQ, as the source map format uses it: each value is a run of base64 digits carrying 5
// bits each, least significant first; bit 6 (32) of a digit says another digit follows, and bit 0
// of the assembled number is the sign.
const (
	vlqShift        = 5
	vlqContinuation = 1 << vlqShift
	vlqMask         = vlqContinuation - 1
	// vlqMaxDigits bounds one value: 7 digits carry 35 bits, more than an int32 needs. A longer
	// run is corrupt input, not a larger number.
	vlqMaxDigits = 7
	// vlqMaxMagnitude is the largest magnitude decoded. go-sourcemap assembles a value and its
	// sign bit in an int32, so it misreads any value of 2^30 or more (2^31-1 as -1); refusing
	// those keeps the two decoders in agreement.
	vlqMaxMagnitude = 1<<30 - 1
)

const base64Digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// vlqValue maps a byte to its base64 digit, or -1 for a byte that is not one.
var vlqValue = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(base64Digits); i++ {
		t[base64Digits[i]] = int8(i)
	}
	return t
}()

var (
	errVLQDigit    = errors.New("invalid base64 VLQ digit")
	errVLQTrunc    = errors.New("base64 VLQ value ends mid-value")
	errVLQOverflow = errors.New("base64 VLQ value is 2^30 or more")
)

// decodeVLQ decodes the value starting at s[i] and returns it with the index just past it.
// It stops at the end of the value; separators (',' ';') are the caller's business.
func decodeVLQ(s string, i int) (v int32, next int, err error) {
	var n uint64
	for k := 0; ; k++ {
		if i >= len(s) {
			return 0, i, errVLQTrunc
		}
		if k == vlqMaxDigits {
			return 0, i, errVLQOverflow
		}
		d := vlqValue[s[i]]
		if d < 0 {
			return 0, i, errVLQDigit
		}
		i++
		n |= uint64(d&vlqMask) << (vlqShift * k)
		if d&vlqContinuation == 0 {
			break
		}
	}
	neg := n&1 == 1
	n >>= 1
	if n > vlqMaxMagnitude {
		return 0, i, errVLQOverflow
	}
	if neg {
		return int32(-int64(n)), i, nil
	}
	return int32(n), i, nil
}

// appendVLQ appends the encoding of v to dst. Tests and benchmarks build maps with it.
func appendVLQ(dst []byte, v int32) []byte {
	var n uint64
	if v < 0 {
		n = uint64(-int64(v))<<1 | 1
	} else {
		n = uint64(v) << 1
	}
	for {
		d := n & vlqMask
		n >>= vlqShift
		if n > 0 {
			d |= vlqContinuation
		}
		dst = append(dst, base64Digits[d])
		if n == 0 {
			return dst
		}
	}
}

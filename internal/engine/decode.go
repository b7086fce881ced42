package engine

import "traced/internal/cdp"

// decodeParams decodes a notification's params as the CDP client decodes replies (cdp.Decode).
func decodeParams(data []byte, v any) error { return cdp.Decode(data, v) }

package cdp

import (
	"context"
	"net"
)

// DialWithoutQuickAck dials like Dial but leaves the socket's delayed ACKs alone, so a benchmark
// can show what the TCP_QUICKACK re-arm buys.
func DialWithoutQuickAck(ctx context.Context, url string, opts Options) (*Client, error) {
	return dial(ctx, url, opts, func(c net.Conn) net.Conn { return c })
}

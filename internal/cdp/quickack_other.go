//go:build !linux

package cdp

import "net"

// wrapQuickAck is a no-op where TCP_QUICKACK does not exist.
func wrapQuickAck(c net.Conn) net.Conn { return c }

//go:build !linux

package quickack

import "net"

// Wrap is a no-op where TCP_QUICKACK does not exist.
func Wrap(c net.Conn) net.Conn { return c }

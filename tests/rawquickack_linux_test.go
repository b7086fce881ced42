package tests

import (
	"net"
	"syscall"
)

// quickAckConn re-arms TCP_QUICKACK after every read, the idea of internal/cdp/quickack_linux.go
// copied so that the baseline does not depend on traced's client: Linux clears the flag on its
// own, and the inspector's second back-to-back message waits for our ACK of the first.
type quickAckConn struct {
	*net.TCPConn
	raw syscall.RawConn
}

func quickAck(c net.Conn) net.Conn {
	tcp, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tcp.SyscallConn()
	if err != nil {
		return c
	}
	q := &quickAckConn{TCPConn: tcp, raw: raw}
	q.arm()
	return q
}

func (q *quickAckConn) Read(p []byte) (int, error) {
	n, err := q.TCPConn.Read(p)
	q.arm()
	return n, err
}

func (q *quickAckConn) arm() {
	_ = q.raw.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
	})
}

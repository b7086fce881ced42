package dap

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
)

// Listener serves DAP clients on a loopback TCP port of the service: what an editor's
// debugServer setting connects to. Each connection is a Server of its own; the token must come
// in the launch or attach arguments, as the REST API's bearer token does.
type Listener struct {
	ln  net.Listener
	cfg Config

	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Listen binds addr, which must be a loopback address: the adapter runs code for its clients.
func Listen(addr string, cfg Config) (*Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dap listener %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("dap listener %q: not a loopback address", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dap listener: %w", err)
	}
	return &Listener{ln: ln, cfg: cfg, conns: map[net.Conn]struct{}{}}, nil
}

// Addr is where the listener accepts.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Serve accepts clients until Close.
func (l *Listener) Serve(ctx context.Context) error {
	for {
		conn, err := l.ln.Accept()
		if err != nil {
			l.mu.Lock()
			closed := l.closed
			l.mu.Unlock()
			if closed || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("dap listener: %w", err)
		}
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			conn.Close()
			return nil
		}
		l.conns[conn] = struct{}{}
		l.wg.Add(1)
		l.mu.Unlock()
		go func() {
			defer l.wg.Done()
			defer func() {
				l.mu.Lock()
				delete(l.conns, conn)
				l.mu.Unlock()
				conn.Close()
			}()
			if err := New(l.cfg).Serve(ctx, conn, conn); err != nil {
				l.cfg.logger().Debug("dap: connection ended", "err", err)
			}
		}()
	}
}

// Close stops accepting, ends every connection and waits for their servers to finish.
func (l *Listener) Close() error {
	l.mu.Lock()
	l.closed = true
	err := l.ln.Close()
	for c := range l.conns {
		c.Close()
	}
	l.mu.Unlock()
	l.wg.Wait()
	return err
}

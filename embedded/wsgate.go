package embedded

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// wsGate fronts the NATS WebSocket listener with an exact Origin check.
//
// nats-server only accepts http and https origins in its allow-list, and a
// browser extension's Origin is chrome-extension://<id>. The gate takes the
// extension's connection, refuses any other Origin with 403, and hands the
// upgrade on to NATS with the Origin rewritten to the gate's own, the only
// one NATS is told to accept. A page that dials NATS's port directly carries
// its own Origin and is refused there.
type wsGate struct {
	ln       net.Listener
	allowed  map[string]bool
	upstream string // host:port of the NATS WebSocket listener
	log      *slog.Logger
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    map[net.Conn]struct{}
	closed   bool
	// upstreams are the local addresses of the gate's connections to NATS.
	upstreams sync.Map
}

func listenGate(port int, origins []string, log *slog.Logger) (*wsGate, error) {
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("websocket listener: %w", err)
	}
	allowed := make(map[string]bool, len(origins))
	for _, o := range origins {
		allowed[o] = true
	}
	return &wsGate{ln: ln, allowed: allowed, log: log, conns: map[net.Conn]struct{}{}}, nil
}

// isUpstream reports whether addr is the local end of one of the gate's
// connections to NATS: a client that passed the Origin check.
func (g *wsGate) isUpstream(addr string) bool {
	_, ok := g.upstreams.Load(addr)
	return ok
}

// origin is the Origin the gate presents to NATS.
func (g *wsGate) origin() string { return "http://" + g.ln.Addr().String() }

func (g *wsGate) port() int { return g.ln.Addr().(*net.TCPAddr).Port }

func (g *wsGate) serve(upstream string) {
	g.upstream = upstream
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		for {
			c, err := g.ln.Accept()
			if err != nil {
				return
			}
			if !g.track(c) {
				c.Close()
				return
			}
			g.wg.Add(1)
			go func() {
				defer g.wg.Done()
				defer g.untrack(c)
				g.handle(c)
			}()
		}
	}()
}

func (g *wsGate) handle(c net.Conn) {
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		g.reject(c, http.StatusBadRequest, "malformed websocket upgrade")
		return
	}
	// A browser sends its extension's Origin byte for byte, once: another
	// case, a trailing slash or a second Origin header is someone else.
	origins := req.Header.Values("Origin")
	if len(origins) != 1 || !g.allowed[origins[0]] {
		g.log.Warn("refused websocket connection from an origin that is not the paired extension")
		g.reject(c, http.StatusForbidden, "origin not allowed")
		return
	}
	if !strings.EqualFold(req.Header.Get("Upgrade"), "websocket") {
		g.reject(c, http.StatusBadRequest, "websocket upgrade required")
		return
	}
	_ = c.SetReadDeadline(time.Time{})
	// Bound before it connects, not by connect: Linux lets connect() give
	// two sockets the same local port when their far ends differ, so a
	// CLI connection could come from this connection's port and be taken
	// for the gate's (and refused). A port bound explicitly is never
	// handed to another connect().
	d := net.Dialer{Timeout: 5 * time.Second, LocalAddr: &net.TCPAddr{IP: loopbackOf(g.upstream)}}
	up, err := d.Dial("tcp", g.upstream)
	if err != nil {
		g.reject(c, http.StatusServiceUnavailable, "shim is not ready")
		return
	}
	if !g.track(up) {
		up.Close()
		return
	}
	defer g.untrack(up)
	// NATS knows this connection by its local address: the authenticator
	// asks the gate whether a client came through it.
	local := up.LocalAddr().String()
	g.upstreams.Store(local, true)
	defer g.upstreams.Delete(local)
	defer up.Close()
	req.Header.Set("Origin", g.origin())
	req.Host = g.upstream
	if err := req.Write(up); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() { _, _ = io.Copy(up, br); closeWrite(up); done <- struct{}{} }()
	go func() { _, _ = io.Copy(c, up); closeWrite(c); done <- struct{}{} }()
	<-done
	<-done
}

func (g *wsGate) reject(c net.Conn, code int, reason string) {
	fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s",
		code, http.StatusText(code), len(reason), reason)
}

func (g *wsGate) track(c net.Conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	g.conns[c] = struct{}{}
	return true
}

func (g *wsGate) untrack(c net.Conn) {
	g.mu.Lock()
	delete(g.conns, c)
	g.mu.Unlock()
}

func (g *wsGate) close() {
	g.mu.Lock()
	g.closed = true
	for c := range g.conns {
		c.Close()
	}
	g.mu.Unlock()
	err := g.ln.Close()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		g.log.Warn("close websocket listener", "err", err)
	}
	g.wg.Wait()
}

func closeWrite(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
		return
	}
	c.Close()
}

// loopbackOf is the IP of host:port, for binding the local end of a
// connection to it; nil (any) when it is not an IP.
func loopbackOf(hostport string) net.IP {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		return nil
	}
	return net.ParseIP(host)
}

package certproxy

import (
	"fmt"
	"io"
	"net"
	"net/http"
)

// tunnel is a plain TCP tunnel: the browser talks TLS with the site itself.
func (p *Proxy) tunnel(w http.ResponseWriter, hj http.Hijacker, addr string) {
	up, err := p.dialer.DialContext(p.ctx, "tcp", addr)
	if err != nil {
		http.Error(w, fmt.Sprintf("dial %s: %v", addr, err), http.StatusBadGateway)
		return
	}
	if !p.track(up) {
		return
	}
	defer p.untrack(up)
	client, err := hijack(hj)
	if err != nil || !p.track(client) {
		return
	}
	defer p.untrack(client)
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	splice(client, up)
}

// hijack takes the browser's connection over from net/http, keeping any
// bytes it already read past the CONNECT request.
func hijack(hj http.Hijacker) (net.Conn, error) {
	c, rw, err := hj.Hijack()
	if err != nil {
		return nil, fmt.Errorf("take over the proxy connection: %w", err)
	}
	if n := rw.Reader.Buffered(); n > 0 {
		return &prefixConn{Conn: c, r: io.MultiReader(rw.Reader, c)}, nil
	}
	return c, nil
}

// prefixConn reads bytes buffered before the hijack ahead of the socket.
// It has no CloseWrite, so a tunnel through it ends both ways at once.
type prefixConn struct {
	net.Conn
	r io.Reader
}

func (c *prefixConn) Read(b []byte) (int, error) { return c.r.Read(b) }

// closeWriter is what TCP and TLS connections offer to end one direction.
type closeWriter interface{ CloseWrite() error }

// splice copies both ways until both directions end, passing each end of
// stream on as a half-close so that neither side is cut short.
func splice(a, b net.Conn) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		copyHalf(b, a)
	}()
	copyHalf(a, b)
	<-done
}

func copyHalf(dst, src net.Conn) {
	_, err := io.Copy(dst, src)
	if cw, ok := dst.(closeWriter); ok && err == nil {
		_ = cw.CloseWrite()
		return
	}
	// A broken stream is ended both ways, or the other copy would wait.
	_ = dst.Close()
	_ = src.Close()
}

package certproxy

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"sync"
	"time"
)

// dialTimeout bounds each connection the proxy opens to a site, so a dead
// host fails the page instead of hanging the replay.
const dialTimeout = 30 * time.Second

// Proxy is a running local proxy. Its methods are safe for concurrent use.
type Proxy struct {
	entries []*loaded
	ca      *authority
	log     *slog.Logger
	ln      net.Listener
	srv     *http.Server
	fwd     *httputil.ReverseProxy
	ctx     context.Context
	cancel  context.CancelFunc
	dialer  net.Dialer

	mu       sync.Mutex
	refusals map[string]error      // host -> last failure
	conns    map[net.Conn]struct{} // hijacked and upstream conns, closed by Close
	closed   bool
	tunnels  sync.WaitGroup
	stopped  chan struct{} // Serve has returned
	closeErr error
	unwatch  func() bool // stops watching Start's ctx
}

// Start loads every entry's files, then listens on 127.0.0.1. Errors name
// the entry ("client certificate 2 (hosts a.example): ..."), never its
// passphrase. The proxy stops when ctx ends or Close is called. A nil
// logger discards.
func Start(ctx context.Context, entries []Entry, logger *slog.Logger) (*Proxy, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	p := &Proxy{log: logger, refusals: map[string]error{}, conns: map[net.Conn]struct{}{}, stopped: make(chan struct{})}
	for i, e := range entries {
		if err := e.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", e.label(i), err)
		}
		l, err := load(i, e, logger)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.label(i), err)
		}
		p.entries = append(p.entries, l)
	}
	var err error
	if p.ca, err = newAuthority(); err != nil {
		return nil, err
	}
	if p.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("listen for the certificate proxy: %w", err)
	}
	p.ctx, p.cancel = context.WithCancel(context.WithoutCancel(ctx))
	p.dialer = net.Dialer{Timeout: dialTimeout}
	p.fwd = &httputil.ReverseProxy{
		// A proxy request's URL is already absolute: send it on as is.
		Rewrite: func(*httputil.ProxyRequest) {},
		// Never chain to the environment's proxy: the browser chose this one.
		Transport: &http.Transport{DialContext: p.dialer.DialContext, ForceAttemptHTTP2: true},
		ErrorLog:  slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: dialTimeout, ErrorLog: p.fwd.ErrorLog,
		BaseContext: func(net.Listener) context.Context { return p.ctx }}
	go func() {
		defer close(p.stopped)
		_ = p.srv.Serve(p.ln)
	}()
	p.unwatch = context.AfterFunc(ctx, func() { _ = p.Close() })
	return p, nil
}

// Args are the Chromium switches that route every request, loopback ones
// included, through the proxy and accept the proxy's minted certificates.
func (p *Proxy) Args() []string {
	return []string{
		"--proxy-server=http://" + p.ln.Addr().String(),
		// Chromium sends localhost and 127.0.0.1 direct unless told not to.
		"--proxy-bypass-list=<-loopback>",
		"--ignore-certificate-errors-spki-list=" + p.ca.spkiList(),
	}
}

// Refusal is the last failure seen for host: the site rejected the client
// certificate, the handshake with it failed, or the browser did not take
// the proxy's certificate. Nil if there was none.
func (p *Proxy) Refusal(host string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refusals[normHost(host)]
}

func (p *Proxy) refuse(host string, err error) {
	p.mu.Lock()
	p.refusals[normHost(host)] = err
	p.mu.Unlock()
	p.log.Warn("client certificate proxy: connection failed", "host", host, "err", err)
}

// Close stops listening, ends every open connection and waits for them.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		<-p.stopped
		return p.closeErr
	}
	p.closed = true
	p.unwatch()
	for c := range p.conns {
		_ = c.Close()
	}
	p.mu.Unlock()
	p.cancel()
	p.closeErr = p.srv.Close()
	<-p.stopped
	p.tunnels.Wait()
	return p.closeErr
}

// track registers a connection for Close; false means the proxy is closing
// and c has been closed.
func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		_ = c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

// entryFor is the first entry with a host pattern matching host.
func (p *Proxy) entryFor(host string) *loaded {
	for _, l := range p.entries {
		for _, pat := range l.Hosts {
			if MatchHost(pat, host) {
				return l
			}
		}
	}
	return nil
}

// enter counts a CONNECT in for Close to wait on; false once closing, so
// that no count starts after Close's wait has.
func (p *Proxy) enter() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.tunnels.Add(1)
	return true
}

// ServeHTTP is the proxy: CONNECT to a host an entry names is bridged with
// the entry's certificate, any other CONNECT is tunnelled, and a
// plain-HTTP proxy request is forwarded.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodConnect {
		if r.URL.Host == "" {
			http.Error(w, "this is a proxy: send it absolute-URL requests", http.StatusBadRequest)
			return
		}
		p.fwd.ServeHTTP(w, r)
		return
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		http.Error(w, "CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "cannot hijack the connection", http.StatusInternalServerError)
		return
	}
	if !p.enter() {
		http.Error(w, "the proxy is closing", http.StatusServiceUnavailable)
		return
	}
	defer p.tunnels.Done()
	if l := p.entryFor(host); l != nil {
		client, err := hijack(hj)
		if err != nil || !p.track(client) {
			return
		}
		defer p.untrack(client)
		if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
			return
		}
		p.bridge(client, host, r.Host, l)
		return
	}
	p.tunnel(w, hj, r.Host)
}

package certproxy

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"time"
)

// http11 is the only ALPN protocol offered on either side: with both ends
// speaking HTTP/1.1 the proxy can copy bytes without parsing HTTP/2 frames.
var http11 = []string{"http/1.1"}

// bridge ends the browser's TLS on client with a minted leaf for host, opens
// TLS to addr presenting l's certificate, and copies between the two.
func (p *Proxy) bridge(client net.Conn, host, addr string, l *loaded) {
	host = normHost(host)
	leaf, err := p.ca.leaf(host)
	if err != nil {
		p.refuse(host, err)
		return
	}
	browser := tls.Server(client, &tls.Config{Certificates: []tls.Certificate{*leaf}, NextProtos: http11, MinVersion: tls.VersionTLS12})
	ctx, cancel := context.WithTimeout(p.ctx, dialTimeout)
	defer cancel()
	if err := browser.HandshakeContext(ctx); err != nil {
		// A browser that drops a speculative connection is not a failure;
		// one that sends an alert rejected the minted certificate.
		if isRemoteAlert(err) {
			p.refuse(host, fmt.Errorf("the browser rejected the proxy's certificate for %s (was it started with the proxy's Args?): %w", host, err))
		} else {
			p.log.Debug("browser left before its TLS handshake ended", "host", host, "err", err)
		}
		return
	}

	var presented atomic.Bool
	cfg := &tls.Config{
		ServerName: host,
		RootCAs:    l.roots,
		NextProtos: http11,
		MinVersion: tls.VersionTLS12,
		// A callback rather than Certificates: the certificate goes to any
		// site the entry names even when the site's list of acceptable CAs
		// does not mention its issuer (as a person picking it would do),
		// and the log then says exactly which hosts asked for it.
		GetClientCertificate: func(cri *tls.CertificateRequestInfo) (*tls.Certificate, error) {
			if l.trustOnly() {
				p.log.Info("site asked for a client certificate; none is configured for it", "host", host, "entry", l.index+1)
				return &tls.Certificate{}, nil
			}
			presented.Store(true)
			p.log.Info("client certificate presented", "host", host, "entry", l.index+1)
			if err := cri.SupportsCertificate(&l.cert); err != nil {
				p.log.Warn("site's certificate request does not fit the client certificate; sending it anyway",
					"host", host, "entry", l.index+1, "err", err)
			}
			return &l.cert, nil
		},
	}
	d := tls.Dialer{NetDialer: &p.dialer, Config: cfg}
	upConn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		err = explain(host, l, presented.Load(), err)
		p.refuse(host, err)
		failPage(browser, err)
		return
	}
	if !p.track(upConn) {
		return
	}
	defer p.untrack(upConn)

	done := make(chan struct{})
	go func() {
		defer close(done)
		// The browser's side is read until it hangs up, even once the
		// site stopped taking it: closing a connection with its data
		// unread resets it, and the browser would lose the answer (the
		// proxy's page about a refusal) already on its way.
		_, err := io.Copy(&discardOnError{w: upConn}, browser)
		if cw, ok := upConn.(closeWriter); ok && err == nil {
			_ = cw.CloseWrite()
		}
	}()
	// With TLS 1.3 the client's handshake ends before the server has
	// checked the certificate: a refusal arrives as an alert on the first
	// read, so an error before any byte came back is the site's answer.
	n, err := io.Copy(browser, upConn)
	if err != nil && n == 0 && isRemoteAlert(err) {
		err = explain(host, l, presented.Load(), err)
		p.refuse(host, err)
		writePage(browser, err)
		_ = browser.CloseWrite()
		select { // the browser hangs up once it has read the page
		case <-done:
		case <-time.After(5 * time.Second):
		}
	}
	if err == nil {
		_ = browser.CloseWrite()
	} else {
		_ = browser.Close()
		_ = upConn.Close()
	}
	<-done
}

// explain turns a failed upstream connection into a message saying whose
// side failed.
func explain(host string, l *loaded, presented bool, err error) error {
	var verr *tls.CertificateVerificationError
	switch {
	case errors.As(err, &verr):
		trust := "the system roots"
		if l.CAFile != "" {
			trust += " and " + l.CAFile
		}
		return fmt.Errorf("%s: the site's certificate is not trusted by %s: %w", host, trust, err)
	case isRemoteAlert(err) && presented:
		return fmt.Errorf("%s rejected %s: %w", host, l.label(), err)
	case isRemoteAlert(err):
		return fmt.Errorf("%s ended the TLS handshake before asking for %s: %w", host, l.label(), err)
	}
	return fmt.Errorf("%s: TLS connection for %s failed: %w", host, l.label(), err)
}

// isRemoteAlert reports whether the peer sent a TLS alert; crypto/tls
// reports those as an *net.OpError with Op "remote error".
func isRemoteAlert(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "remote error"
}

// failPage answers the browser's request with a 502 naming the failure, so
// a person looking at the page (or a screenshot) sees why, rather than an
// empty response.
func failPage(browser *tls.Conn, cause error) {
	// Read the request first: closing with it unread would reset the
	// connection and the browser would drop the answer.
	_ = browser.SetReadDeadline(time.Now().Add(10 * time.Second))
	if req, err := http.ReadRequest(bufio.NewReader(browser)); err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(req.Body, 1<<20))
	}
	writePage(browser, cause)
	_ = browser.Close()
}

func writePage(w io.Writer, cause error) {
	body := "reprise client-certificate proxy: " + cause.Error() + "\n"
	_, _ = fmt.Fprintf(w, "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
}

// discardOnError writes to w until a write fails, then swallows the rest.
type discardOnError struct {
	w      io.Writer
	failed bool
}

func (d *discardOnError) Write(p []byte) (int, error) {
	if !d.failed {
		if _, err := d.w.Write(p); err != nil {
			d.failed = true
		}
	}
	return len(p), nil
}

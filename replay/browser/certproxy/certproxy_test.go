package certproxy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"github.com/reprise-dev/reprise/replay/browser/certproxy/certtest"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log sink the proxy's goroutines may write concurrently.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func start(t *testing.T, entries []Entry) (*Proxy, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	p, err := Start(context.Background(), entries, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	return p, logs
}

// client is an HTTP client that goes through p and trusts p's CA plus
// extra, as Chromium started with p.Args() does.
func client(p *Proxy, extra ...*x509.Certificate) *http.Client {
	roots := x509.NewCertPool()
	roots.AddCert(p.ca.ca)
	for _, c := range extra {
		roots.AddCert(c)
	}
	u := &url.URL{Scheme: "http", Host: p.ln.Addr().String()}
	return &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{
		Proxy: http.ProxyURL(u), TLSClientConfig: &tls.Config{RootCAs: roots}, DisableKeepAlives: true,
	}}
}

func get(t *testing.T, c *http.Client, u string) (int, string, error) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

func TestPEMEntry(t *testing.T) {
	k := certtest.NewPKI(t)
	site := k.Site(t)
	alice := k.Client(t, "alice")
	cf, kf := certtest.WritePEM(t, alice, alice.Key)
	p, logs := start(t, []Entry{{Hosts: []string{"127.0.0.1"}, CertFile: cf, KeyFile: kf, CAFile: k.CAFile}})
	code, body, err := get(t, client(p), site.URL)
	if err != nil || code != 200 || !strings.Contains(body, "hello alice") {
		t.Fatalf("got %d %q %v, want the page naming alice", code, body, err)
	}
	if !strings.Contains(logs.String(), "client certificate presented") || !strings.Contains(logs.String(), "host=127.0.0.1") {
		t.Errorf("log does not record the host the certificate went to:\n%s", logs)
	}
	if err := p.Refusal("127.0.0.1"); err != nil {
		t.Errorf("Refusal = %v after a good exchange", err)
	}
}

func TestPKCS12Entry(t *testing.T) {
	k := certtest.NewPKI(t)
	site := k.Site(t)
	bob := k.Client(t, "bob")
	const pass = "correct horse battery"
	pfx := certtest.WritePFX(t, bob, bob.Key, k.ClientCA, pass)
	// The first matching entry wins: the PEM one for other hosts is skipped.
	other := k.Client(t, "other")
	cf, kf := certtest.WritePEM(t, other, other.Key)
	p, logs := start(t, []Entry{
		{Hosts: []string{"*.example.com"}, CertFile: cf, KeyFile: kf},
		{Hosts: []string{"127.0.0.1", "*"}, PFXFile: pfx, Passphrase: pass, CAFile: k.CAFile},
	})
	code, body, err := get(t, client(p), site.URL)
	if err != nil || code != 200 || !strings.Contains(body, "hello bob") {
		t.Fatalf("got %d %q %v, want the page naming bob", code, body, err)
	}
	if strings.Contains(logs.String(), pass) {
		t.Errorf("log holds the passphrase:\n%s", logs)
	}
}

// Without an entry for the host, the proxy is a plain tunnel and the site's
// handshake fails for want of a client certificate.
func TestNoEntryIsPlainTunnel(t *testing.T) {
	k := certtest.NewPKI(t)
	site := k.Site(t)
	alice := k.Client(t, "alice")
	cf, kf := certtest.WritePEM(t, alice, alice.Key)
	p, _ := start(t, []Entry{{Hosts: []string{"intranet.example.com"}, CertFile: cf, KeyFile: kf}})
	_, body, err := get(t, client(p, k.ServerCA.Cert), site.URL)
	if err == nil {
		t.Fatalf("got the page %q through a plain tunnel without a client certificate", body)
	}

	// And a site that wants no certificate works through the tunnel.
	open := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "open site") }))
	defer open.Close()
	if _, body, err := get(t, client(p, open.Certificate()), open.URL); err != nil || body != "open site" {
		t.Errorf("tunnel to an open site: %q %v", body, err)
	}
}

func TestPlainHTTPForwarded(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "plain "+r.URL.Path) }))
	defer s.Close()
	p, _ := start(t, nil)
	if code, body, err := get(t, client(p), s.URL+"/form"); err != nil || code != 200 || body != "plain /form" {
		t.Errorf("got %d %q %v", code, body, err)
	}
}

// A site that does not accept the certificate's issuer refuses it, and
// Refusal says which host did.
func TestRefusal(t *testing.T) {
	k := certtest.NewPKI(t)
	site := k.Site(t)
	stranger := certtest.Issue(t, certtest.Issue(t, nil, "some other CA", 0, time.Hour), "mallory", x509.ExtKeyUsageClientAuth, time.Hour)
	cf, kf := certtest.WritePEM(t, stranger, stranger.Key)
	p, logs := start(t, []Entry{{Hosts: []string{"127.0.0.1"}, CertFile: cf, KeyFile: kf, CAFile: k.CAFile}})
	code, body, _ := get(t, client(p), site.URL)
	if code != http.StatusBadGateway || !strings.Contains(body, "rejected client certificate 1") {
		t.Errorf("browser got %d %q, want a 502 saying the site rejected the certificate", code, body)
	}
	err := p.Refusal("127.0.0.1")
	if err == nil || !strings.Contains(err.Error(), "127.0.0.1 rejected client certificate 1 (hosts 127.0.0.1)") {
		t.Fatalf("Refusal = %v", err)
	}
	t.Log(err)
	if !strings.Contains(logs.String(), "connection failed") {
		t.Errorf("refusal not logged:\n%s", logs)
	}
}

// The site's own certificate is checked: without the entry's CAFile the
// test site's private CA is not trusted.
func TestUntrustedSite(t *testing.T) {
	k := certtest.NewPKI(t)
	site := k.Site(t)
	alice := k.Client(t, "alice")
	cf, kf := certtest.WritePEM(t, alice, alice.Key)
	p, _ := start(t, []Entry{{Hosts: []string{"127.0.0.1"}, CertFile: cf, KeyFile: kf}})
	if code, _, _ := get(t, client(p), site.URL); code != http.StatusBadGateway {
		t.Errorf("status %d, want 502", code)
	}
	err := p.Refusal("127.0.0.1")
	if err == nil || !strings.Contains(err.Error(), "not trusted") {
		t.Fatalf("Refusal = %v, want the site's certificate not trusted", err)
	}
	t.Log(err)
}

// Args lists hashes that Chromium will find in the chain the proxy serves:
// the CA's and the leaf's SubjectPublicKeyInfo.
func TestArgs(t *testing.T) {
	p, _ := start(t, nil)
	leaf, err := p.ca.leaf("a.example")
	if err != nil {
		t.Fatal(err)
	}
	hash := func(spki []byte) string { s := sha256.Sum256(spki); return base64.StdEncoding.EncodeToString(s[:]) }
	want := []string{
		"--proxy-server=http://" + p.ln.Addr().String(),
		"--proxy-bypass-list=<-loopback>",
		"--ignore-certificate-errors-spki-list=" + hash(p.ca.ca.RawSubjectPublicKeyInfo) + "," + hash(leaf.Leaf.RawSubjectPublicKeyInfo),
	}
	if got := p.Args(); !slices.Equal(got, want) {
		t.Errorf("Args() = %q, want %q", got, want)
	}
	if ca, err := x509.ParseCertificate(leaf.Certificate[1]); err != nil || !ca.Equal(p.ca.ca) {
		t.Errorf("a minted leaf is not served with the CA after it (%v)", err)
	}
}

package certproxy

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

// Key material is made afresh for every test run, in t.TempDir(): none is
// committed.

type testCert struct {
	cert *x509.Certificate
	key  crypto.Signer
}

func newKey(t *testing.T) crypto.Signer {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// issue signs a certificate for cn with parent (nil: self-signed CA).
// validFor < 0 makes one that has already expired.
func issue(t *testing.T, parent *testCert, cn string, usage x509.ExtKeyUsage, validFor time.Duration) *testCert {
	t.Helper()
	key := newKey(t)
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(now.UnixNano()),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(validFor),
	}
	if validFor < 0 {
		tmpl.NotBefore = now.Add(2 * validFor)
	}
	signer, signKey := tmpl, key
	if parent == nil {
		tmpl.IsCA, tmpl.BasicConstraintsValid = true, true
		tmpl.KeyUsage = x509.KeyUsageCertSign
	} else {
		signer, signKey = parent.cert, parent.key
		tmpl.KeyUsage = x509.KeyUsageDigitalSignature
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{usage}
		if usage == x509.ExtKeyUsageServerAuth {
			tmpl.DNSNames = []string{"localhost"}
			tmpl.IPAddresses = []net.IP{net.IPv4(127, 0, 0, 1), net.IPv4(127, 0, 0, 2), net.IPv6loopback}
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, key.Public(), signKey)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCert{cert: c, key: key}
}

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func certPEM(c *testCert) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.cert.Raw})
}

// writePEM writes c's certificate and k's key (usually c's own).
func writePEM(t *testing.T, c *testCert, k crypto.Signer) (certFile, keyFile string) {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "client.crt", certPEM(c)),
		writeFile(t, "client.key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// writePFX writes a modern (AES, PBES2) PKCS#12 file of c's certificate
// with k's key, its CA after it.
func writePFX(t *testing.T, c *testCert, k crypto.Signer, ca *testCert, pass string) string {
	t.Helper()
	data, err := pkcs12.Modern.Encode(k, c.cert, []*x509.Certificate{ca.cert}, pass)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "client.p12", data)
}

// pki is a site's CA, the site's server certificate, and a client CA whose
// certificates the site accepts.
type pki struct {
	serverCA, clientCA *testCert
	server             *testCert
	caFile             string // serverCA as PEM: an Entry's CAFile
}

func newPKI(t *testing.T) *pki {
	p := &pki{serverCA: issue(t, nil, "test server CA", 0, time.Hour), clientCA: issue(t, nil, "test client CA", 0, time.Hour)}
	p.server = issue(t, p.serverCA, "test site", x509.ExtKeyUsageServerAuth, time.Hour)
	p.caFile = writeFile(t, "ca.pem", certPEM(p.serverCA))
	return p
}

func (p *pki) client(t *testing.T, cn string) *testCert {
	return issue(t, p.clientCA, cn, x509.ExtKeyUsageClientAuth, time.Hour)
}

// site starts a TLS server on 127.0.0.1 that requires a client certificate
// from clientCA and answers with that certificate's common name.
func (p *pki) site(t *testing.T) *httptest.Server { return p.siteOn(t, nil) }

// siteOn is site on ln (nil: httptest's own listener on 127.0.0.1).
func (p *pki) siteOn(t *testing.T, ln net.Listener) *httptest.Server {
	t.Helper()
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<html><body><p>hello %s</p></body></html>", r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	roots := x509.NewCertPool()
	roots.AddCert(p.clientCA.cert)
	s.TLS = &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{p.server.cert.Raw}, PrivateKey: p.server.key}},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    roots,
	}
	// Refused handshakes are what some tests are about: keep them quiet.
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	if ln != nil {
		s.Listener.Close()
		s.Listener = ln
	}
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

// Package certtest makes the certificates tests of client certificates
// need, afresh for every run in a test's temp dir: none is committed.
package certtest

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

type Cert struct {
	Cert *x509.Certificate
	Key  crypto.Signer
}

func NewKey(t testing.TB) crypto.Signer {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Issue signs a certificate for cn with parent (nil: self-signed CA).
// validFor < 0 makes one that has already expired.
func Issue(t testing.TB, parent *Cert, cn string, usage x509.ExtKeyUsage, validFor time.Duration) *Cert {
	t.Helper()
	key := NewKey(t)
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
		signer, signKey = parent.Cert, parent.Key
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
	return &Cert{Cert: c, Key: key}
}

func WriteFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func CertPEM(c *Cert) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Cert.Raw})
}

// WritePEM writes c's certificate and k's key (usually c's own).
func WritePEM(t testing.TB, c *Cert, k crypto.Signer) (certFile, keyFile string) {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return WriteFile(t, "client.crt", CertPEM(c)),
		WriteFile(t, "client.Key", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// WritePFX writes a modern (AES, PBES2) PKCS#12 file of c's certificate
// with k's key, its CA after it.
func WritePFX(t testing.TB, c *Cert, k crypto.Signer, ca *Cert, pass string) string {
	t.Helper()
	data, err := pkcs12.Modern.Encode(k, c.Cert, []*x509.Certificate{ca.Cert}, pass)
	if err != nil {
		t.Fatal(err)
	}
	return WriteFile(t, "client.p12", data)
}

// PKI is a site's CA, the site's server certificate, and a client CA whose
// certificates the site accepts.
type PKI struct {
	ServerCA, ClientCA *Cert
	Server             *Cert
	CAFile             string // ServerCA as PEM: an Entry's CAFile
}

func NewPKI(t testing.TB) *PKI {
	p := &PKI{ServerCA: Issue(t, nil, "test server CA", 0, time.Hour), ClientCA: Issue(t, nil, "test client CA", 0, time.Hour)}
	p.Server = Issue(t, p.ServerCA, "test site", x509.ExtKeyUsageServerAuth, time.Hour)
	p.CAFile = WriteFile(t, "ca.pem", CertPEM(p.ServerCA))
	return p
}

func (p *PKI) Client(t testing.TB, cn string) *Cert {
	return Issue(t, p.ClientCA, cn, x509.ExtKeyUsageClientAuth, time.Hour)
}

// Site starts a TLS server on 127.0.0.1 that requires a client certificate
// from ClientCA and answers with that certificate's common name.
func (p *PKI) Site(t testing.TB) *httptest.Server { return p.SiteOn(t, nil) }

// SiteOn is Site on ln (nil: httptest's own listener on 127.0.0.1).
func (p *PKI) SiteOn(t testing.TB, ln net.Listener) *httptest.Server {
	t.Helper()
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "<html><body><p>hello %s</p></body></html>", r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	roots := x509.NewCertPool()
	roots.AddCert(p.ClientCA.Cert)
	s.TLS = &tls.Config{
		Certificates: []tls.Certificate{{Certificate: [][]byte{p.Server.Cert.Raw}, PrivateKey: p.Server.Key}},
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

// ServerTLS is a TLS config serving the site's certificate, asking for no
// client certificate.
func (p *PKI) ServerTLS() *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{p.Server.Cert.Raw}, PrivateKey: p.Server.Key}}}
}

package certproxy

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"fmt"
	"math/big"
	"net"
	"sync"
	"time"
)

// authority is the proxy's ephemeral CA. Its key never leaves the process
// and dies with the proxy, so the browser's exception for it (by SPKI hash)
// covers nothing but this proxy's leaves.
type authority struct {
	ca      *x509.Certificate
	caKey   *ecdsa.PrivateKey
	leafKey *ecdsa.PrivateKey // one key for every leaf: minting is then one signature

	mu     sync.Mutex
	leaves map[string]*tls.Certificate
}

func newAuthority() (*authority, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate proxy CA key: %w", err)
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate proxy leaf key: %w", err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "reprise certproxy ephemeral CA", Organization: []string{"reprise"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("sign proxy CA: %w", err)
	}
	ca, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parse proxy CA: %w", err)
	}
	return &authority{ca: ca, caKey: caKey, leafKey: leafKey, leaves: map[string]*tls.Certificate{}}, nil
}

// spkiList is the value for --ignore-certificate-errors-spki-list: the
// base64 SHA-256 of the CA's and of the shared leaf key's
// SubjectPublicKeyInfo. Chromium (services/network's
// IgnoreErrorsCertVerifier) hashes each certificate the server sends, not
// the chain it builds, so the CA's hash counts only because every leaf is
// served with the CA after it; checked with Chromium 156, where the CA's
// hash alone fails with a leaf-only chain and the leaf key's alone passes.
// Both are listed so that either rule suffices; one leaf key for all hosts
// keeps it at one hash however many hosts are minted.
func (a *authority) spkiList() string {
	ca := sha256.Sum256(a.ca.RawSubjectPublicKeyInfo)
	leafSPKI, err := x509.MarshalPKIXPublicKey(&a.leafKey.PublicKey)
	if err != nil {
		// A P-256 key always marshals; the CA alone still works then.
		return base64.StdEncoding.EncodeToString(ca[:])
	}
	leaf := sha256.Sum256(leafSPKI)
	return base64.StdEncoding.EncodeToString(ca[:]) + "," + base64.StdEncoding.EncodeToString(leaf[:])
}

// leaf returns the certificate for host, minting it on first use.
func (a *authority) leaf(host string) (*tls.Certificate, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c, ok := a.leaves[host]; ok {
		return c, nil
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: host},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.ca, &a.leafKey.PublicKey, a.caKey)
	if err != nil {
		return nil, fmt.Errorf("mint certificate for %s: %w", host, err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parse minted certificate for %s: %w", host, err)
	}
	c := &tls.Certificate{Certificate: [][]byte{der, a.ca.Raw}, PrivateKey: a.leafKey, Leaf: leaf}
	a.leaves[host] = c
	return c, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		// crypto/rand does not fail on supported platforms (Go 1.24+
		// crashes instead); a fixed serial still makes a valid cert.
		return big.NewInt(1)
	}
	return n
}

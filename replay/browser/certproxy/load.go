package certproxy

import (
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

// loaded is an entry with its files read: what a connection needs.
type loaded struct {
	Entry
	index int             // position in Start's list, for labels
	cert  tls.Certificate // client certificate with its chain
	roots *x509.CertPool  // nil: the system roots alone
}

func (l *loaded) label() string { return l.Entry.label(l.index) }

// load reads an entry's certificate, key and CA files, so that a wrong
// passphrase or a missing file fails Start rather than a replay midway.
func load(i int, e Entry, logger *slog.Logger) (*loaded, error) {
	l := &loaded{Entry: e, index: i}
	var err error
	if e.CAFile != "" {
		if l.roots, err = loadRoots(e.CAFile); err != nil {
			return nil, err
		}
	}
	switch {
	case e.trustOnly():
		return l, nil
	case e.PFXFile != "":
		l.cert, err = loadPFX(e.PFXFile, e.Passphrase)
	default:
		l.cert, err = loadPEM(e.CertFile, e.KeyFile)
	}
	if err != nil {
		return nil, redact(err, e.Passphrase)
	}
	// An expired certificate is still tried: some servers do not check,
	// and the site's answer is what the person needs to see.
	now, leaf := time.Now(), l.cert.Leaf
	if now.After(leaf.NotAfter) || now.Before(leaf.NotBefore) {
		logger.Warn("client certificate is outside its validity period; the site may refuse it",
			"entry", i+1, "hosts", e.Hosts, "not_before", leaf.NotBefore, "not_after", leaf.NotAfter)
	}
	return l, nil
}

func loadPEM(certFile, keyFile string) (tls.Certificate, error) {
	// LoadX509KeyPair also checks that the key belongs to the certificate
	// and fills in Leaf.
	c, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return c, fmt.Errorf("load PEM certificate %s and key %s: %w", certFile, keyFile, err)
	}
	return c, nil
}

func loadPFX(file, passphrase string) (tls.Certificate, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("read PKCS#12 file: %w", err)
	}
	key, first, rest, err := pkcs12.DecodeChain(data, passphrase)
	if errors.Is(err, pkcs12.ErrIncorrectPassword) || errors.Is(err, pkcs12.ErrDecryption) {
		return tls.Certificate{}, fmt.Errorf("open PKCS#12 file %s: wrong passphrase", file)
	}
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("open PKCS#12 file %s: %w", file, err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return tls.Certificate{}, fmt.Errorf("PKCS#12 file %s: unsupported private key type %T", file, key)
	}
	// Exporters do not agree on the order of the bags: the leaf is the
	// certificate that holds the key's public half, wherever it is.
	all := append([]*x509.Certificate{first}, rest...)
	leafAt := -1
	for i, c := range all {
		if pub, ok := c.PublicKey.(interface{ Equal(crypto.PublicKey) bool }); ok && pub.Equal(signer.Public()) {
			leafAt = i
			break
		}
	}
	if leafAt < 0 {
		return tls.Certificate{}, fmt.Errorf("PKCS#12 file %s: the private key does not match any certificate in it", file)
	}
	out := tls.Certificate{PrivateKey: signer, Leaf: all[leafAt], Certificate: [][]byte{all[leafAt].Raw}}
	for i, c := range all {
		if i != leafAt {
			out.Certificate = append(out.Certificate, c.Raw)
		}
	}
	return out, nil
}

// loadRoots is the system pool plus the file's certificates.
func loadRoots(file string) (*x509.CertPool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read CA file: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(data) {
		return nil, fmt.Errorf("CA file %s holds no PEM certificate", file)
	}
	return pool, nil
}

// redact keeps a passphrase out of an error even if a library quoted it.
func redact(err error, secret string) error {
	if err == nil || secret == "" || !strings.Contains(err.Error(), secret) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), secret, "<passphrase>"))
}

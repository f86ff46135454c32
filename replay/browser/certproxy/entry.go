// Package certproxy lets a replayed Chromium present TLS client
// certificates without the OS certificate picker, which nobody is there to
// answer during a replay.
//
// The browser sends all its traffic through a local HTTP proxy. For a host
// that a certificate entry names, the proxy ends the browser's TLS with a
// leaf it mints for that host, signed by an ephemeral CA that exists only in
// this process; the browser is told to accept that CA's key (and the one key
// all leaves share) with --ignore-certificate-errors-spki-list, which
// weakens nothing else since those keys die with the proxy. The proxy then opens its own TLS
// connection to the real host, presenting the entry's client certificate
// and verifying the server against the system roots plus the entry's
// CAFile, and copies bytes both ways. ALPN is pinned to http/1.1 on both
// sides so that the copy is a plain byte stream. Every other host gets a
// plain CONNECT tunnel (or a forwarded plain-HTTP request) and the browser
// verifies it as usual.
package certproxy

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
)

// Entry is one client certificate and the hosts it is presented to.
type Entry struct {
	// Hosts are "host", "1.2.3.4", "*.example.com" (subdomains only, not
	// example.com itself) or "*" (every host).
	Hosts []string
	// PFXFile is a PKCS#12 file, opened with Passphrase.
	PFXFile string
	// Passphrase opens PFXFile. It never appears in an error or a log.
	Passphrase string
	// CertFile and KeyFile are a PEM pair; the key must be unencrypted.
	CertFile, KeyFile string
	// CAFile is an optional PEM bundle of roots trusted, besides the
	// system's, for these hosts' servers (a private CA a site uses).
	CAFile string
}

// String describes the entry with its passphrase masked, so that printing
// or logging an Entry whole cannot leak the secret.
func (e Entry) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hosts %s", strings.Join(e.Hosts, ", "))
	if e.PFXFile != "" {
		fmt.Fprintf(&b, "; PKCS#12 %s", e.PFXFile)
	}
	if e.Passphrase != "" {
		b.WriteString(" (passphrase set)")
	}
	if e.CertFile != "" || e.KeyFile != "" {
		fmt.Fprintf(&b, "; PEM %s, key %s", e.CertFile, e.KeyFile)
	}
	if e.CAFile != "" {
		fmt.Fprintf(&b, "; CA file %s", e.CAFile)
	}
	return b.String()
}

// GoString masks the passphrase from %#v too.
func (e Entry) GoString() string { return "certproxy.Entry{" + e.String() + "}" }

// LogValue masks the passphrase from slog.
func (e Entry) LogValue() slog.Value { return slog.StringValue(e.String()) }

// label names an entry in errors and logs by its 1-based position and its
// hosts: the passphrase and file contents stay out.
func (e Entry) label(i int) string {
	what := "client certificate"
	if e.trustOnly() {
		what = "trusted authority"
	}
	return fmt.Sprintf("%s %d (hosts %s)", what, i+1, strings.Join(e.Hosts, ", "))
}

// trustOnly says the entry presents no certificate: it only adds its CA
// file to what the hosts' servers are verified with.
func (e Entry) trustOnly() bool { return e.PFXFile == "" && e.CertFile == "" && e.KeyFile == "" }

// Check reports what is malformed in the entry, without reading its files.
func (e Entry) Check() error {
	if len(e.Hosts) == 0 {
		return errors.New("no hosts: name at least one host the certificate is for")
	}
	for _, h := range e.Hosts {
		if err := checkPattern(h); err != nil {
			return err
		}
	}
	pem := e.CertFile != "" || e.KeyFile != ""
	switch {
	case e.PFXFile != "" && pem:
		return errors.New("both a PKCS#12 file and a PEM pair: give one of them")
	case e.PFXFile == "" && !pem && e.CAFile == "":
		return errors.New("no certificate: give a PKCS#12 file or a PEM certificate and key, or a CA file to trust")
	case pem && (e.CertFile == "" || e.KeyFile == ""):
		return errors.New("a PEM certificate needs both its certificate file and its key file")
	case pem && e.Passphrase != "":
		// A passphrase given with a PEM pair would be silently unused:
		// encrypted PEM keys are not supported, so say so.
		return errors.New("a passphrase is only for a PKCS#12 file; PEM keys must be unencrypted")
	}
	return nil
}

// checkPattern accepts a host name, an IP address, "*.name" or "*".
func checkPattern(p string) error {
	if p == "*" {
		return nil
	}
	if net.ParseIP(p) != nil {
		return nil
	}
	name := strings.TrimPrefix(p, "*.")
	if strings.Contains(name, "*") {
		return fmt.Errorf("host %q: a wildcard is only allowed as a whole first label (*.example.com) or alone (*)", p)
	}
	if !validName(name) {
		return fmt.Errorf("host %q is not a host name or IP address (no scheme, port or path)", p)
	}
	return nil
}

// validName reports whether s is a DNS name: dot-separated labels of
// letters, digits, hyphens and underscores (some intranet names have them).
func validName(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
			if !ok {
				return false
			}
		}
	}
	return true
}

// normHost lowercases a host and drops IPv6 brackets and a trailing dot, so
// that the browser's spelling and the entry's compare equal.
func normHost(h string) string {
	h = strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// MatchHost reports whether host (a bare name or IP, no port) is covered by
// pattern: "*" covers all, "*.example.com" covers any name under
// example.com but not example.com itself, an IP covers the same address
// however it is spelled, and a name covers itself, ignoring case.
func MatchHost(pattern, host string) bool {
	pattern, host = normHost(pattern), normHost(host)
	if pattern == "*" {
		return host != ""
	}
	if pip := net.ParseIP(pattern); pip != nil {
		hip := net.ParseIP(host)
		return hip != nil && hip.Equal(pip)
	}
	if suffix, ok := strings.CutPrefix(pattern, "*."); ok {
		return strings.HasSuffix(host, "."+suffix) && len(host) > len(suffix)+1
	}
	return host == pattern
}

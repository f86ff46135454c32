package certproxy

import (
	"context"
	"crypto/x509"
	"fmt"
	"github.com/reprise-dev/reprise/replay/browser/certproxy/certtest"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"software.sslmate.com/src/go-pkcs12"
)

func TestMatchHost(t *testing.T) {
	for _, c := range []struct {
		pattern, host string
		want          bool
	}{
		{"example.com", "example.com", true},
		{"example.com", "EXAMPLE.com.", true},
		{"example.com", "www.example.com", false},
		{"*.example.com", "www.example.com", true},
		{"*.example.com", "a.b.example.com", true},
		{"*.example.com", "example.com", false},
		{"*.example.com", "badexample.com", false},
		{"*", "anything.test", true},
		{"*", "10.0.0.1", true},
		{"127.0.0.1", "127.0.0.1", true},
		{"127.0.0.1", "127.0.0.2", false},
		{"::1", "[0:0::1]", true},
		{"::1", "localhost", false},
		{"localhost", "127.0.0.1", false},
	} {
		if got := MatchHost(c.pattern, c.host); got != c.want {
			t.Errorf("MatchHost(%q, %q) = %v, want %v", c.pattern, c.host, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	pem := Entry{Hosts: []string{"a.example"}, CertFile: "c.pem", KeyFile: "k.pem"}
	with := func(f func(*Entry)) Entry { e := pem; e.Hosts = append([]string(nil), pem.Hosts...); f(&e); return e }
	for _, c := range []struct {
		name  string
		entry Entry
		want  string // "" = valid
	}{
		{"pem pair", pem, ""},
		{"pfx", Entry{Hosts: []string{"*"}, PFXFile: "c.p12", Passphrase: "x"}, ""},
		{"pfx without passphrase", Entry{Hosts: []string{"10.1.2.3", "::1"}, PFXFile: "c.p12"}, ""},
		{"wildcard and ca", with(func(e *Entry) { e.Hosts = []string{"*.corp.example", "intranet_1"}; e.CAFile = "ca.pem" }), ""},
		{"no hosts", with(func(e *Entry) { e.Hosts = nil }), "no hosts"},
		{"empty host", with(func(e *Entry) { e.Hosts = []string{""} }), "not a host name"},
		{"scheme", with(func(e *Entry) { e.Hosts = []string{"https://a.example"} }), "not a host name"},
		{"port", with(func(e *Entry) { e.Hosts = []string{"a.example:443"} }), "not a host name"},
		{"path", with(func(e *Entry) { e.Hosts = []string{"a.example/login"} }), "not a host name"},
		{"inner wildcard", with(func(e *Entry) { e.Hosts = []string{"a.*.example"} }), "wildcard"},
		{"glued wildcard", with(func(e *Entry) { e.Hosts = []string{"*example.com"} }), "wildcard"},
		{"double wildcard", with(func(e *Entry) { e.Hosts = []string{"*.*.example"} }), "wildcard"},
		{"bare wildcard dot", with(func(e *Entry) { e.Hosts = []string{"*."} }), "not a host name"},
		{"empty label", with(func(e *Entry) { e.Hosts = []string{"a..example"} }), "not a host name"},
		{"both kinds", with(func(e *Entry) { e.PFXFile = "c.p12" }), "both"},
		{"no certificate", Entry{Hosts: []string{"a.example"}}, "no certificate"},
		{"cert without key", with(func(e *Entry) { e.KeyFile = "" }), "both its certificate file and its key file"},
		{"key without cert", with(func(e *Entry) { e.CertFile = "" }), "both its certificate file and its key file"},
		{"passphrase with pem", with(func(e *Entry) { e.Passphrase = "s3cret" }), "only for a PKCS#12"},
	} {
		err := c.entry.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: Check() = %v, want nil", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Check() = %v, want an error containing %q", c.name, err, c.want)
		case err != nil && c.entry.Passphrase != "" && strings.Contains(err.Error(), c.entry.Passphrase):
			t.Errorf("%s: error %q holds the passphrase", c.name, err)
		}
	}
}

// startErr is Start's error for entries, which must name the entry.
func startErr(t *testing.T, entries []Entry, want ...string) string {
	t.Helper()
	p, err := Start(context.Background(), entries, nil)
	if err == nil {
		_ = p.Close()
		t.Fatalf("Start succeeded, want an error containing %q", want)
	}
	t.Log(err)
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("Start error %q does not contain %q", err, w)
		}
	}
	return err.Error()
}

func TestStartErrors(t *testing.T) {
	k := certtest.NewPKI(t)
	alice, bob := k.Client(t, "alice"), k.Client(t, "bob")
	good := func() Entry {
		cf, kf := certtest.WritePEM(t, alice, alice.Key)
		return Entry{Hosts: []string{"ok.example"}, CertFile: cf, KeyFile: kf}
	}

	t.Run("wrong passphrase", func(t *testing.T) {
		pfx := certtest.WritePFX(t, alice, alice.Key, k.ClientCA, "the right one")
		const wrong = "Tr0ub4dor&3-wrong"
		msg := startErr(t, []Entry{good(), {Hosts: []string{"a.example"}, PFXFile: pfx, Passphrase: wrong}},
			"client certificate 2 (hosts a.example)", "wrong passphrase")
		if strings.Contains(msg, wrong) || strings.Contains(msg, "the right one") {
			t.Errorf("error %q holds a passphrase", msg)
		}
	})
	t.Run("pem key of another cert", func(t *testing.T) {
		cf, kf := certtest.WritePEM(t, alice, bob.Key)
		startErr(t, []Entry{{Hosts: []string{"a.example"}, CertFile: cf, KeyFile: kf}}, "client certificate 1 (hosts a.example)", "does not match")
	})
	t.Run("pfx key of another cert", func(t *testing.T) {
		pfx := certtest.WritePFX(t, alice, bob.Key, k.ClientCA, "pw")
		startErr(t, []Entry{{Hosts: []string{"a.example"}, PFXFile: pfx, Passphrase: "pw"}}, "client certificate 1", "does not match")
	})
	t.Run("unreadable files", func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "missing.p12")
		startErr(t, []Entry{{Hosts: []string{"a.example"}, PFXFile: missing, Passphrase: "pw"}}, "client certificate 1", "missing.p12")
		e := good()
		e.CAFile = filepath.Join(t.TempDir(), "missing-ca.pem")
		startErr(t, []Entry{e}, "missing-ca.pem")
	})
	t.Run("malformed entry", func(t *testing.T) {
		startErr(t, []Entry{good(), good(), {Hosts: []string{"x.example:8443"}}}, "trusted authority 3 (hosts x.example:8443)", "not a host name")
	})
}

// An expired certificate loads (the site has the last word) with a warning.
func TestExpiredWarns(t *testing.T) {
	k := certtest.NewPKI(t)
	old := certtest.Issue(t, k.ClientCA, "old", x509.ExtKeyUsageClientAuth, -time.Hour)
	cf, kf := certtest.WritePEM(t, old, old.Key)
	logs := &syncBuffer{}
	p, err := Start(context.Background(), []Entry{{Hosts: []string{"a.example"}, CertFile: cf, KeyFile: kf}}, slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !strings.Contains(logs.String(), "level=WARN") || !strings.Contains(logs.String(), "validity") {
		t.Errorf("no warning for an expired certificate:\n%s", logs)
	}
}

// Printing or logging an Entry whole keeps the passphrase out.
func TestEntryHidesPassphrase(t *testing.T) {
	const secret = "s3cret-pass"
	e := Entry{Hosts: []string{"a.example"}, PFXFile: "c.p12", Passphrase: secret}
	logs := &syncBuffer{}
	slog.New(slog.NewTextHandler(logs, nil)).Info("entry", "e", e)
	for _, s := range []string{fmt.Sprint(e), fmt.Sprintf("%+v", e), fmt.Sprintf("%#v", e), logs.String()} {
		if strings.Contains(s, secret) || !strings.Contains(s, "a.example") {
			t.Errorf("%q: passphrase shown or hosts missing", s)
		}
	}
}

// Every PKCS#12 flavour in use loads: AES (PBES2) with the classic MAC or
// with PBMAC1, and the legacy 3DES and RC2 ones older exporters write.
func TestPKCS12Flavours(t *testing.T) {
	k := certtest.NewPKI(t)
	alice := k.Client(t, "alice")
	for name, enc := range map[string]*pkcs12.Encoder{"modern2023": pkcs12.Modern2023, "modern2026": pkcs12.Modern2026, "legacy des": pkcs12.LegacyDES, "legacy rc2": pkcs12.LegacyRC2} {
		data, err := enc.Encode(alice.Key, alice.Cert, []*x509.Certificate{k.ClientCA.Cert}, "pw")
		if err != nil {
			t.Fatal(err)
		}
		p, err := Start(context.Background(), []Entry{{Hosts: []string{"a.example"}, PFXFile: certtest.WriteFile(t, "c.p12", data), Passphrase: "pw"}}, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := p.entries[0].cert.Leaf.Subject.CommonName; got != "alice" || len(p.entries[0].cert.Certificate) != 2 {
			t.Errorf("%s: leaf %q with %d certificates, want alice and its CA", name, got, len(p.entries[0].cert.Certificate))
		}
		_ = p.Close()
	}
}

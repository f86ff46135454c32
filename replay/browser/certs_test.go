package browser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser/certproxy/certtest"
	"github.com/reprise-dev/reprise/skills"
)

// TestClientCertificates replays on local TLS sites: one that requires a
// client certificate signed by a test CA (given from a PKCS#12 file whose
// passphrase is read the way the keychain is), one whose server
// certificate only the skill's trusted CA vouches for, and one that
// refuses the certificate given.
func TestClientCertificates(t *testing.T) {
	browser(t)
	k := certtest.NewPKI(t)
	bob := k.Client(t, "bob")
	pfx := certtest.WritePFX(t, bob, bob.Key, k.ClientCA, "correct horse")
	bank := k.Site(t)

	// A site without client certificates whose server only the CA vouches for.
	plain := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><p>intranet</p>`)
	}))
	plain.TLS = k.ServerTLS()
	plain.StartTLS()
	defer plain.Close()

	// A site on 127.0.0.2 that accepts certificates of another CA only.
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("!!! no 127.0.0.2 here (%v): client certificates are NOT tested", err)
	}
	other := certtest.NewPKI(t)
	other.ServerCA, other.Server = k.ServerCA, k.Server
	picky := other.SiteOn(t, ln)

	asked := ""
	b := &skills.Browser{
		ClientCertificates: []skills.ClientCertificate{
			{Hosts: []string{"127.0.0.1"}, PFXFile: filepath.Base(pfx), PassphraseKey: "bank-cert", CAFile: k.CAFile},
			{Hosts: []string{"127.0.0.2"}, PFXFile: pfx, PassphraseKey: "bank-cert", CAFile: k.CAFile},
		},
		TrustedCAs: []skills.TrustedCA{{Hosts: []string{"localhost"}, CAFile: k.CAFile}},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ex, err := New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true, Skill: b, SkillDir: filepath.Dir(pfx),
		Passphrase: func(name string) (string, error) { asked = name; return "correct horse", nil }})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	if asked != "bank-cert" {
		t.Errorf("the passphrase asked for is %q", asked)
	}
	open(t, ex, bank.URL+"/")
	if text := eval[string](t, ex, "document.body.innerText"); !strings.Contains(text, "hello bob") {
		t.Errorf("the bank shows %q; want it to greet the certificate's bob", text)
	}
	open(t, ex, strings.Replace(plain.URL, "127.0.0.1", "localhost", 1)+"/")
	if text := eval[string](t, ex, "document.body.innerText"); !strings.Contains(text, "intranet") {
		t.Errorf("the intranet shows %q", text)
	}
	out := run(t, ex, replay.Step{Index: 2, Step: skills.Step{Action: "navigate", Value: picky.URL + "/"}})
	if out.OK || !strings.Contains(out.Error, "step 3 (navigate): client certificate: 127.0.0.2 rejected client certificate 2") {
		t.Errorf("a site refusing the certificate = %+v", out)
	}
}

func TestClientCertificateRefusedBeforeLaunch(t *testing.T) {
	browser(t)
	k := certtest.NewPKI(t)
	bob := k.Client(t, "bob")
	pfx := certtest.WritePFX(t, bob, bob.Key, k.ClientCA, "correct horse")
	b := &skills.Browser{ClientCertificates: []skills.ClientCertificate{{Hosts: []string{"*"}, PFXFile: pfx, PassphraseKey: "k"}}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const wrong = "Tr0ub4dor&3"
	_, err := New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true, Skill: b, Passphrase: func(string) (string, error) { return wrong, nil }})
	if err == nil || !strings.Contains(err.Error(), "client certificate 1") || strings.Contains(err.Error(), wrong) {
		t.Errorf("a wrong passphrase: %v", err)
	}
	_, err = New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true, Skill: b, Passphrase: func(string) (string, error) { return "", errors.New("no secret k in the keychain") }})
	if err == nil || !strings.Contains(err.Error(), "client certificate 1: no secret k in the keychain") {
		t.Errorf("a passphrase not in the keychain: %v", err)
	}
}

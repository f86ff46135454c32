package browser

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/reprise-dev/reprise/replay/browser/certproxy"
)

// startCerts starts the proxy that presents the skill's client
// certificates and verifies with its trusted authorities, or returns nil
// when the skill names none. Every file is read, and every passphrase
// taken from the keychain, before the browser starts.
func startCerts(ctx context.Context, o Options) (*certproxy.Proxy, error) {
	b := o.Skill
	if b == nil || len(b.ClientCertificates) == 0 && len(b.TrustedCAs) == 0 {
		return nil, nil
	}
	at := func(f string) string {
		if f == "" || filepath.IsAbs(f) || o.SkillDir == "" {
			return f
		}
		return filepath.Join(o.SkillDir, f)
	}
	var entries []certproxy.Entry
	for i, c := range b.ClientCertificates {
		e := certproxy.Entry{Hosts: c.Hosts, PFXFile: at(c.PFXFile), CertFile: at(c.CertFile), KeyFile: at(c.KeyFile), CAFile: at(c.CAFile)}
		if c.PassphraseKey != "" {
			if o.Passphrase == nil {
				return nil, fmt.Errorf("client certificate %d: its passphrase is in the keychain, and nothing here reads it", i+1)
			}
			pw, err := o.Passphrase(c.PassphraseKey)
			if err != nil {
				return nil, fmt.Errorf("client certificate %d: %w", i+1, err)
			}
			e.Passphrase = pw
		}
		entries = append(entries, e)
	}
	for _, c := range b.TrustedCAs {
		entries = append(entries, certproxy.Entry{Hosts: c.Hosts, CAFile: at(c.CAFile)})
	}
	// The proxy lives as long as the executor, not as long as New's ctx.
	return certproxy.Start(context.WithoutCancel(ctx), entries, o.Logger.WithGroup("certificates"))
}

package skills

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Browser sets up the browser a skill replays in. Every field is optional;
// a skill without the section replays headless, on the whole web, with
// screenshots on failure.
type Browser struct {
	// Headless runs without a window (default true); --show overrides it.
	Headless *bool `yaml:"headless,omitempty"`
	// Executable is the browser to start; empty is CHROME_PATH, else the
	// Chromium or Chrome found on this machine.
	Executable string    `yaml:"executable,omitempty"`
	Viewport   *Viewport `yaml:"viewport,flow,omitempty"`
	// Proxy carries every request: [scheme://]host[:port], scheme http,
	// https or socks5, without credentials.
	Proxy string `yaml:"proxy,omitempty"`
	// AllowedDomains are the only hosts the page may load from:
	// "example.com" is that host, "*.example.com" its subdomains.
	// Empty allows every host.
	AllowedDomains []string `yaml:"allowed_domains,flow,omitempty"`
	// Screenshots says when a row's page is saved: on_failure (default),
	// final, each or never.
	Screenshots string `yaml:"screenshots,omitempty"`
	// Profile names the persistent profile rows replay in (logins kept);
	// --profile overrides it.
	Profile string `yaml:"profile,omitempty"`
	// ClientCertificates are presented to the hosts each names, so a site
	// that asks for one opens without the OS asking for its password.
	ClientCertificates []ClientCertificate `yaml:"client_certificates,omitempty"`
	// TrustedCAs add certificate authorities for the hosts each names.
	TrustedCAs []TrustedCA `yaml:"trusted_cas,omitempty"`
}

// Viewport is the page's size in CSS pixels.
type Viewport struct {
	Width  int `yaml:"width"`
	Height int `yaml:"height"`
}

// ClientCertificate is a TLS client certificate and the hosts it goes to:
// a PKCS#12 file whose passphrase is in the keychain, or an unencrypted PEM
// pair. Relative files are under the skill's folder.
type ClientCertificate struct {
	Hosts   []string `yaml:"hosts,flow"`
	PFXFile string   `yaml:"pfx_file,omitempty"`
	// PassphraseKey names the keychain item holding the PFX's passphrase
	// (`reprise secret set NAME`): a skill never holds the passphrase.
	PassphraseKey string `yaml:"passphrase_key,omitempty"`
	CertFile      string `yaml:"cert_file,omitempty"`
	KeyFile       string `yaml:"key_file,omitempty"`
	// CAFile holds PEM authorities trusted for these hosts' servers.
	CAFile string `yaml:"ca_file,omitempty"`
}

// TrustedCA is a PEM file of authorities trusted for the hosts it names,
// besides the system's.
type TrustedCA struct {
	Hosts  []string `yaml:"hosts,flow"`
	CAFile string   `yaml:"ca_file"`
}

// Screenshot policies.
const (
	ShotsOnFailure = "on_failure"
	ShotsFinal     = "final"
	ShotsEach      = "each"
	ShotsNever     = "never"
)

// ShotPolicy is the skill's screenshot policy, on_failure when unset.
func (b *Browser) ShotPolicy() string {
	if b == nil || b.Screenshots == "" {
		return ShotsOnFailure
	}
	return b.Screenshots
}

// IsHeadless says whether the skill's browser runs without a window.
func (b *Browser) IsHeadless() bool { return b == nil || b.Headless == nil || *b.Headless }

func (b *Browser) validate() error {
	if b == nil {
		return nil
	}
	for i, d := range b.AllowedDomains {
		if err := CheckDomain(d); err != nil {
			return fieldErr(fmt.Sprintf("browser.allowed_domains[%d]", i), "%v", err)
		}
	}
	if v := b.Viewport; v != nil && (v.Width < 200 || v.Height < 200 || v.Width > 7680 || v.Height > 4320) {
		return fieldErr("browser.viewport", "want a width and height from 200 to 7680x4320 pixels, not %dx%d", v.Width, v.Height)
	}
	if b.Proxy != "" {
		if err := checkProxy(b.Proxy); err != nil {
			return fieldErr("browser.proxy", "%v", err)
		}
	}
	switch b.Screenshots {
	case "", ShotsOnFailure, ShotsFinal, ShotsEach, ShotsNever:
	default:
		return fieldErr("browser.screenshots", "unknown policy %s (on_failure, final, each, never)", quoteShort(b.Screenshots))
	}
	if b.Profile != "" && !ValidProfile(b.Profile) {
		return fieldErr("browser.profile", "%s is not a profile name: letters, digits, '-' and '_', up to 64", quoteShort(b.Profile))
	}
	for i, c := range b.ClientCertificates {
		if err := c.validate(); err != nil {
			return fieldErr(fmt.Sprintf("browser.client_certificates[%d]", i), "%v", err)
		}
	}
	if b.Proxy != "" && len(b.ClientCertificates)+len(b.TrustedCAs) > 0 {
		// The certificate proxy is the browser's proxy: it does not chain
		// to another yet.
		return fieldErr("browser.proxy", "a proxy together with client_certificates or trusted_cas is not supported yet: drop one")
	}
	for i, c := range b.TrustedCAs {
		at := fmt.Sprintf("browser.trusted_cas[%d]", i)
		if err := checkHosts(c.Hosts); err != nil {
			return fieldErr(at+".hosts", "%v", err)
		}
		if c.CAFile == "" {
			return fieldErr(at+".ca_file", "is missing: the PEM file of authorities to trust")
		}
	}
	return nil
}

func (c ClientCertificate) validate() error {
	if err := checkHosts(c.Hosts); err != nil {
		return fmt.Errorf("hosts: %w", err)
	}
	pfx, pem := c.PFXFile != "", c.CertFile != "" || c.KeyFile != ""
	switch {
	case pfx == pem:
		return fmt.Errorf("give either pfx_file (with passphrase_key) or cert_file and key_file")
	case pem && (c.CertFile == "" || c.KeyFile == ""):
		return fmt.Errorf("a PEM certificate needs both cert_file and key_file")
	case pem && c.PassphraseKey != "":
		return fmt.Errorf("passphrase_key is for a pfx_file: a PEM key_file is read unencrypted")
	}
	return nil
}

func checkHosts(hosts []string) error {
	if len(hosts) == 0 {
		return fmt.Errorf("name at least one host")
	}
	for _, h := range hosts {
		if h == "*" {
			continue
		}
		if err := CheckDomain(h); err != nil && net.ParseIP(h) == nil {
			return err
		}
	}
	return nil
}

// CheckDomain checks an allowed-domains entry: a host name of two labels
// or more ("example.com"), or "*." and one ("*.example.com" for its
// subdomains); no scheme, port, path or other "*".
func CheckDomain(d string) error {
	name := strings.TrimPrefix(d, "*.")
	switch {
	case d == "":
		return fmt.Errorf("is empty")
	case strings.Contains(d, "://"):
		return fmt.Errorf("%s has a scheme: write the host only", quoteShort(d))
	case strings.ContainsAny(d, "/?#"):
		return fmt.Errorf("%s has a path: write the host only", quoteShort(d))
	case strings.Contains(name, ":") && net.ParseIP(name) == nil:
		return fmt.Errorf("%s has a port: write the host only", quoteShort(d))
	case strings.Contains(name, "*"):
		return fmt.Errorf("%s: a '*' may only open the entry, as in *.example.com", quoteShort(d))
	case net.ParseIP(name) != nil:
		if name != d {
			return fmt.Errorf("%s: an IP address has no subdomains", quoteShort(d))
		}
		return nil
	}
	labels := strings.Split(name, ".")
	if len(labels) < 2 {
		return fmt.Errorf("%s has one label: name a whole domain such as example.com", quoteShort(d))
	}
	for _, l := range labels {
		if l == "" || len(l) > 63 || strings.HasPrefix(l, "-") || strings.HasSuffix(l, "-") ||
			strings.IndexFunc(l, func(r rune) bool {
				return !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
			}) >= 0 {
			return fmt.Errorf("%s is not a host name", quoteShort(d))
		}
	}
	return nil
}

func checkProxy(p string) error {
	raw := p
	if !strings.Contains(p, "://") {
		raw = "http://" + p
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "":
		return fmt.Errorf("%s is not [scheme://]host[:port]", quoteShort(p))
	case u.User != nil:
		return fmt.Errorf("a proxy that needs credentials is not supported: name one without")
	case u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "socks5":
		return fmt.Errorf("scheme %s: want http, https or socks5", quoteShort(u.Scheme))
	case u.Path != "" && u.Path != "/" || u.RawQuery != "":
		return fmt.Errorf("%s has a path: write [scheme://]host[:port]", quoteShort(p))
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %s is not 1-65535", quoteShort(port))
		}
	}
	return nil
}

// ValidProfile reports whether name can name a browser profile: a folder
// name on every OS.
func ValidProfile(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

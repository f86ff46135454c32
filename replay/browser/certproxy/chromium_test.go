package certproxy

import (
	"context"
	"crypto/x509"
	"github.com/reprise-dev/reprise/replay/browser/certproxy/certtest"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/internal/chromium"
)

// launch starts a headless Chromium with args, or skips the test loudly
// where there is none.
func launch(t *testing.T, args []string) (context.Context, context.CancelFunc) {
	t.Helper()
	if _, err := chromium.Find(); err != nil {
		t.Skipf("SKIPPED, NOT PASSED: no Chromium to run the real-browser test: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: t.TempDir(), Args: args})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	actx, cancelAlloc := remote.NewAllocator(ctx, br.DevTools)
	tab, cancelTab := chromedp.NewContext(actx)
	return tab, func() { cancelTab(); cancelAlloc(); br.Close(); cancel() }
}

// pageText navigates the tab to u and reads the page's text. Navigate
// returns once the page has loaded, so there is nothing to wait for after.
func pageText(t *testing.T, tab context.Context, u string) string {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.Navigate(u)); err != nil {
		t.Fatalf("load %s: %v", u, err)
	}
	text, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	if err != nil {
		t.Fatalf("read %s: %v", u, err)
	}
	return text
}

// TestChromium drives the real browser through the proxy: a PEM entry for
// 127.0.0.1, a PKCS#12 entry for localhost, both to the same site, which
// names the certificate it was given; then a host whose certificate the
// site refuses.
func TestChromium(t *testing.T) {
	k := certtest.NewPKI(t)
	site := k.Site(t)
	alice, bob := k.Client(t, "alice"), k.Client(t, "bob")
	cf, kf := certtest.WritePEM(t, alice, alice.Key)
	pfx := certtest.WritePFX(t, bob, bob.Key, k.ClientCA, "pkcs12 pass")
	stranger := certtest.Issue(t, certtest.Issue(t, nil, "some other CA", 0, time.Hour), "mallory", x509.ExtKeyUsageClientAuth, time.Hour)
	sf, skf := certtest.WritePEM(t, stranger, stranger.Key)
	p, logs := start(t, []Entry{
		{Hosts: []string{"127.0.0.1"}, CertFile: cf, KeyFile: kf, CAFile: k.CAFile},
		{Hosts: []string{"localhost"}, PFXFile: pfx, Passphrase: "pkcs12 pass", CAFile: k.CAFile},
		{Hosts: []string{"127.0.0.2"}, CertFile: sf, KeyFile: skf, CAFile: k.CAFile},
	})
	tab, stop := launch(t, p.Args())
	defer stop()

	u, err := url.Parse(site.URL)
	if err != nil {
		t.Fatal(err)
	}
	port := u.Port()
	if text := pageText(t, tab, "https://127.0.0.1:"+port+"/"); !strings.Contains(text, "hello alice") {
		t.Errorf("127.0.0.1 (PEM entry): page says %q, want it to name alice", text)
	}
	if text := pageText(t, tab, "https://localhost:"+port+"/"); !strings.Contains(text, "hello bob") {
		t.Errorf("localhost (PKCS#12 entry): page says %q, want it to name bob", text)
	}
	for _, h := range []string{"127.0.0.1", "localhost"} {
		if !strings.Contains(logs.String(), "host="+h) {
			t.Errorf("log does not record that a certificate went to %s", h)
		}
		if err := p.Refusal(h); err != nil {
			t.Errorf("Refusal(%s) = %v", h, err)
		}
	}

	// The whole 127/8 is loopback on Linux, which gives the refusing site
	// a host of its own; elsewhere that part is skipped.
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Logf("no 127.0.0.2 here (%v): refusal through Chromium not checked", err)
		return
	}
	refusing := k.SiteOn(t, ln)
	text := pageText(t, tab, "https://127.0.0.2:"+refusing.URL[strings.LastIndex(refusing.URL, ":")+1:]+"/")
	err = p.Refusal("127.0.0.2")
	if err == nil || !strings.Contains(err.Error(), "127.0.0.2 rejected client certificate 3") {
		t.Errorf("Refusal(127.0.0.2) = %v, want the site's rejection", err)
	}
	if !strings.Contains(text, "rejected client certificate 3") {
		t.Errorf("the browser shows %q, want the proxy's page saying the site rejected the certificate", text)
	}
	t.Logf("log:\n%s", logs)
}

package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/internal/chromium"
)

// SandboxEnv is the host's switch for Chromium's sandbox: "false" turns it
// off for every browser reprise starts here, for hosts where it cannot
// start (a container running as root). A skill cannot turn it off.
const SandboxEnv = "REPRISE_BROWSER_SANDBOX"

// SandboxOff reports whether this host turned the sandbox off.
func SandboxOff() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(SandboxEnv))) {
	case "false", "0", "off", "no":
		return true
	}
	return false
}

// SandboxOffAsRoot turns the sandbox off for this process and its children
// when it runs as root on Linux and the host said nothing: for test
// programs, whose hosts are containers running as root, where Chromium's
// sandbox cannot start. The product never calls it.
func SandboxOffAsRoot() {
	if runtime.GOOS == "linux" && os.Geteuid() == 0 && os.Getenv(SandboxEnv) == "" {
		os.Setenv(SandboxEnv, "false")
	}
}

// ErrRootSandbox is returned for a launch as root with the sandbox on:
// Chromium refuses to start that way.
var ErrRootSandbox = errors.New("the Chromium sandbox cannot run as root: run reprise as another user, or set " + SandboxEnv + "=false on this host to run browsers without it")

// launchOptions are the Chromium switches for o: the skill's executable
// (else CHROME_PATH, else the one found here), window size and proxy, and
// the host's sandbox choice.
func launchOptions(o Options) (chromium.Options, error) {
	lo := chromium.Options{ProfileDir: o.ProfileDir, Show: o.Show, Sandbox: !o.NoSandbox, Args: o.Args}
	if lo.Sandbox && runtime.GOOS == "linux" && os.Geteuid() == 0 {
		return lo, ErrRootSandbox
	}
	exe := os.Getenv("CHROME_PATH")
	if b := o.Skill; b != nil {
		lo.Show = lo.Show || !b.IsHeadless()
		if b.Executable != "" {
			exe = b.Executable
		}
		if v := b.Viewport; v != nil {
			lo.Width, lo.Height = v.Width, v.Height
		}
		if b.Proxy != "" {
			lo.Args = append(lo.Args, "--proxy-server="+b.Proxy)
		}
	}
	if exe != "" {
		path, err := exec.LookPath(exe)
		if err != nil {
			return lo, fmt.Errorf("no browser to start at %s (the skill's browser.executable, or CHROME_PATH): %w", exe, err)
		}
		lo.Executable = path
	}
	return lo, nil
}

// learnUserAgent is the browser's user agent as its executable sends it
// with a window: a headless Chromium says "HeadlessChrome", which sites
// treat as a robot. "" when the browser does not say so.
func learnUserAgent(ctx context.Context) (string, error) {
	v, err := chromedp.Call(ctx, cdpbrowser.GetVersion, cdp.Empty{})
	if err != nil {
		return "", err
	}
	if !strings.Contains(v.UserAgent, "HeadlessChrome/") {
		return "", nil
	}
	return strings.Replace(v.UserAgent, "HeadlessChrome/", "Chrome/", 1), nil
}

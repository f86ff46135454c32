// Package chromium starts Chromium: headless by default, with the reprise
// extension loaded when asked (chromedp's own launcher adds
// --disable-extensions), and hands back its DevTools URL. A headless
// browser without the extension is the headless shell when one is
// installed: the same Blink and V8 without the browser's UI, at about half
// the CPU per page.
package chromium

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/chromedp/cdproto"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/chromedp/remote"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Candidates are the Chromium binaries tried in order: Debian's real binary
// first (its /usr/bin/chromium wrapper is a shell script).
var Candidates = []string{"/usr/lib/chromium/chromium", "/usr/bin/chromium", "chromium", "google-chrome"}

// ShellCandidates are the headless shells tried in order: Debian's
// chromium-headless-shell, then Chrome for Testing's.
var ShellCandidates = []string{"/usr/lib/chromium/chromium-headless-shell", "chromium-headless-shell", "chrome-headless-shell"}

// Find returns the first Chromium on this machine.
func Find() (string, error) {
	if p, ok := lookFirst(Candidates); ok {
		return p, nil
	}
	return "", errors.New("no Chromium found: run scripts/deps (it installs Debian's chromium)")
}

// FindShell returns the first headless shell on this machine, if any.
func FindShell() (string, bool) { return lookFirst(ShellCandidates) }

// FindHeadless returns the browser a headless run starts fastest: the
// headless shell where one is installed (what Playwright runs headless by
// default; a fifth of a full Chromium's start-up CPU here), else Chromium.
func FindHeadless() (string, error) {
	if p, ok := FindShell(); ok {
		return p, nil
	}
	return Find()
}

func lookFirst(names []string) (string, bool) {
	for _, c := range names {
		if p, err := exec.LookPath(c); err == nil {
			return p, true
		}
	}
	return "", false
}

// executable is the binary Launch starts for o: o.Executable, else the
// headless shell for a headless browser without the extension, else
// Chromium. shell says it is a headless shell, which is headless without
// being told and takes no extension.
func executable(o Options) (bin string, shell bool, err error) {
	if o.Executable != "" {
		return o.Executable, isShell(o.Executable), nil
	}
	if !o.Show && o.Extension == "" {
		if p, ok := FindShell(); ok {
			return p, true, nil
		}
	}
	bin, err = Find()
	return bin, false, err
}

// isShell says whether the binary at path is a headless shell, by its name.
func isShell(path string) bool { return strings.Contains(filepath.Base(path), "headless-shell") }

// Browser is a running Chromium.
type Browser struct {
	// DevTools is the browser's DevTools WebSocket URL, for chromedp.
	DevTools string
	cmd      *exec.Cmd
	exited   chan struct{} // closed when the browser's process has exited
}

// disabledFeatures are the Chromium features every launch turns off.
const disabledFeatures = "WebUIOmniboxPopup,WebUIOmniboxAimPopup"

// Options for Launch.
type Options struct {
	// Extension is the unpacked extension's folder; empty loads none.
	Extension string
	// ProfileDir is the user data dir; it should be fresh.
	ProfileDir string
	// Show opens a visible window instead of running headless.
	Show bool
	// Executable is the browser binary; empty finds one (Find).
	Executable string
	// Sandbox keeps Chromium's sandbox on. Tests and the demo run it off
	// (they run as root in containers, where it cannot start).
	Sandbox bool
	// Width and Height size the window; 0 is 1280x800.
	Width, Height int
	// Args are more command-line switches, such as --proxy-server.
	Args []string
	// URL is the page the first tab opens; empty is about:blank.
	URL string
}

// Launch starts Chromium and waits until its DevTools endpoint is up.
func Launch(ctx context.Context, o Options) (*Browser, error) {
	bin, shell, err := executable(o)
	if err != nil {
		return nil, err
	}
	if shell && (o.Show || o.Extension != "") {
		return nil, fmt.Errorf("%s is a headless shell: it opens no window and loads no extension", bin)
	}
	args := switches(o, shell)
	cmd := exec.Command(bin, append(args, cmp.Or(o.URL, "about:blank"))...)
	cmd.Env = append(os.Environ(), "CHROME_LOG_FILE=/dev/null")
	ownGroup(cmd)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start chromium: %w", err)
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "DevTools listening on "); ok {
				found <- strings.TrimSpace(url)
			}
		}
	}()
	select {
	case url := <-found:
		b := &Browser{DevTools: url, cmd: cmd, exited: make(chan struct{})}
		go func() {
			_ = cmd.Wait()
			close(b.exited)
		}()
		return b, nil
	case <-time.After(20 * time.Second):
	case <-ctx.Done():
	}
	killGroup(cmd)
	_ = cmd.Wait()
	return nil, errors.New("chromium did not open its DevTools endpoint in 20 s")
}

// Exited is closed once the browser's process has exited: a person closed
// its window.
func (b *Browser) Exited() <-chan struct{} { return b.exited }

// Close stops the browser and every helper process it started, at once.
func (b *Browser) Close() {
	killGroup(b.cmd)
	<-b.exited
	// The helpers exit as their group is killed; give them a moment to let
	// go of the profile before its folder is removed.
	time.Sleep(100 * time.Millisecond)
}

// Quit asks the browser to shut down as a person's does (Browser.close on
// its DevTools connection), so it writes its profile, a site's login
// cookie included, and gives it up to grace before Close kills what is
// left. Killed, Chromium keeps nothing of the run.
func (b *Browser) Quit(grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if askToClose(ctx, b.DevTools) == nil {
		select {
		case <-b.exited:
		case <-ctx.Done():
		}
	}
	b.Close()
}

// askToClose sends Browser.close on a connection of its own: chromedp
// sends it only for a browser it started itself.
func askToClose(ctx context.Context, devtools string) error {
	conn, err := remote.DialContext(ctx, devtools)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Write(ctx, &cdproto.Message{ID: 1, Method: cdproto.MethodType("Browser.close"), Params: jsonv2.Value("{}")})
}

// switches are the command-line switches Launch starts Chromium with for
// o; shell says the binary is a headless shell.
func switches(o Options, shell bool) []string {
	args := []string{
		"--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + o.ProfileDir, fmt.Sprintf("--window-size=%d,%d", cmp.Or(o.Width, 1280), cmp.Or(o.Height, 800)),
		"--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
		// The omnibox's WebUI popups are rendered at start-up in a renderer
		// of their own: about half of a headless launch's CPU time (3.6 s
		// against 1.7 s here) for a popup no automated page opens. Without
		// them the omnibox uses its native popup.
		"--disable-features=" + disabledFeatures,
	}
	if !o.Sandbox {
		args = append(args, "--no-sandbox")
	}
	if !o.Show && !shell {
		args = append(args, "--headless=new")
	}
	for _, a := range o.Args {
		// Chromium keeps the last --disable-features: it lists ours too.
		if v, ok := strings.CutPrefix(a, "--disable-features="); ok {
			a = "--disable-features=" + disabledFeatures + "," + v
		}
		args = append(args, a)
	}
	if o.Extension != "" {
		args = append(args, "--load-extension="+o.Extension, "--disable-extensions-except="+o.Extension)
	}
	return args
}

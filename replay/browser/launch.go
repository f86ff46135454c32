package browser

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/internal/flock"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser/certproxy"
	"github.com/reprise-dev/reprise/skills"
)

var _ replay.Executor = (*Executor)(nil)

// Log keys.
const (
	keyRow      = "row"
	keyStep     = "step"
	keyAction   = "action"
	keyVia      = "via"
	keySelector = "selector"
	keyOK       = "ok"
	keyMillis   = "ms"
)

// Options configures New.
type Options struct {
	// ProfileDir is Chromium's --user-data-dir. It persists between runs so
	// a site's login survives; New creates it (0700) when missing. Required
	// unless BrowserURL is set.
	ProfileDir string
	// Show opens a visible window; by default the browser runs headless, in
	// the headless shell where one is installed (chromium.FindShell).
	Show bool
	// BrowserURL attaches to a running browser's DevTools endpoint (ws:// or
	// http://host:port) instead of launching one. Close then leaves that
	// browser running and closes only the executor's tab.
	BrowserURL string
	// Attach works in the page the browser at BrowserURL shows (its most
	// recently used tab) instead of opening a tab, and Close leaves that
	// page open: how `reprise elements` reads a running browser.
	Attach bool
	// FindTimeout is how long a step keeps looking for its element when no
	// selector matches exactly one visible element, for pages that render
	// after their load event. Default 5 s.
	FindTimeout time.Duration
	// Logger receives one debug line per step, never a value. Default: none.
	Logger *slog.Logger
	// Skill is the skill's browser section: the executable, window size,
	// proxy, allowed domains and screenshots. Show overrides its headless.
	Skill *skills.Browser
	// NoSandbox turns Chromium's sandbox off: the host's choice
	// (REPRISE_BROWSER_SANDBOX=false), for hosts where it cannot start.
	// With the sandbox on, New refuses to launch as root.
	NoSandbox bool
	// FilesDir is the folder an upload step's relative paths are under
	// (the CSV's); a row's file cells are already resolved by the plan.
	FilesDir string
	// Args are more Chromium switches.
	Args []string
	// SkillDir is the folder the skill's certificate and CA files are
	// under when relative; Passphrase reads a PFX passphrase the skill
	// names (passphrase_key) from the keychain.
	SkillDir   string
	Passphrase func(name string) (string, error)
}

// Executor runs replay steps in one Chromium tab. Its methods must not be
// called concurrently, except Close.
type Executor struct {
	log         *slog.Logger
	findTimeout time.Duration
	shots       string // the screenshot policy (skills.Shots...)
	filesDir    string
	userAgent   string           // the user agent without "Headless", "" to leave it
	viewport    *skills.Viewport // the page's size the skill asks for; nil to leave the window's

	tab          context.Context // the chromedp context of the executor's tab
	cancelTab    context.CancelFunc
	cancelAll    context.CancelFunc // the allocator's
	launched     *chromium.Browser  // nil when attached
	certs        *certproxy.Proxy   // presents the skill's client certificates; nil without
	slot         *flock.Lock        // one of the host's browser slots (MaxOpenEnv); nil without a bound
	nav          *navWatch
	world        *world    // the isolated world page.js runs in
	net          *netWatch // the requests a destructive step sends
	guard        *guard    // allowed domains, refused pages
	dialogs      *dialogs
	downloads    *downloads
	files        chan *page.EventFileChooserOpened // pickers an upload's click opened
	intercepting bool                              // file pickers are intercepted

	prevURL   string // the URL before the previous step, for url_changed waits
	closeOnce sync.Once
}

// New launches Chromium (or attaches to BrowserURL) and opens the tab the
// executor works in.
func New(ctx context.Context, o Options) (*Executor, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.FindTimeout <= 0 {
		o.FindTimeout = 5 * time.Second
	}
	e := &Executor{log: o.Logger.WithGroup("browser"), findTimeout: o.FindTimeout, shots: o.Skill.ShotPolicy(), filesDir: o.FilesDir}
	var allowed []string
	if o.Skill != nil {
		allowed = o.Skill.AllowedDomains
		if !o.Attach {
			e.viewport = o.Skill.Viewport
		}
	}
	e.watch(allowed)
	url := o.BrowserURL
	if url == "" {
		if o.ProfileDir == "" {
			return nil, errors.New("browser: Options.ProfileDir is required to launch Chromium (or set BrowserURL)")
		}
		lo, err := launchOptions(o)
		if err != nil {
			return nil, fmt.Errorf("browser: %w", err)
		}
		if e.slot, err = takeSlot(ctx, e.log); err != nil {
			return nil, fmt.Errorf("browser: %w", err)
		}
		if e.certs, err = startCerts(ctx, o); err != nil {
			e.slot.Release()
			return nil, fmt.Errorf("browser: %w", err)
		}
		if e.certs != nil {
			lo.Args = append(lo.Args, e.certs.Args()...)
		}
		if err := os.MkdirAll(o.ProfileDir, 0o700); err != nil {
			return nil, fmt.Errorf("browser: profile dir: %w", err)
		}
		if err := makeProfilePrivate(o.ProfileDir); err != nil {
			return nil, fmt.Errorf("browser: %w", err)
		}
		br, err := chromium.Launch(ctx, lo)
		if err != nil {
			_ = e.Close()
			return nil, fmt.Errorf("browser: %w", err)
		}
		e.launched, url = br, br.DevTools
	}
	// The tab lives as long as the executor, not as long as New's ctx.
	actx, cancelAll := remote.NewAllocator(context.WithoutCancel(ctx), url)
	// The listener sees the target's events from its first message: a page
	// attached to announces the worlds it already has as it is attached.
	opts := []chromedp.ContextOption{chromedp.WithListener(e.observe)}
	if o.Attach {
		id, err := currentPage(ctx, url)
		if err != nil {
			cancelAll()
			return nil, fmt.Errorf("browser: %w", err)
		}
		opts = append(opts, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
	}
	tab, cancelTab := chromedp.NewContext(actx, opts...)
	e.tab, e.cancelTab, e.cancelAll = tab, cancelTab, cancelAll
	if err := e.open(ctx); err != nil {
		_ = e.Close()
		return nil, fmt.Errorf("browser: open a tab on %s: %w", redactURL(url), err)
	}
	return e, nil
}

// open creates the tab and learns its main frame; observe, given to the
// tab as its listener, watches the frame's navigations, its execution
// contexts and its requests. Its first call runs on the tab's own context:
// chromedp ties the browser connection to the context of the first call.
func (e *Executor) open(ctx context.Context) error {
	stop := context.AfterFunc(ctx, e.cancelTab)
	defer stop()
	tree, err := chromedp.Call(e.tab, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	main := tree.FrameTree.Frame.ID
	e.nav.main, e.world.frame, e.guard.main = main, main, main
	e.nav.at(tree.FrameTree.Frame)
	e.downloads.frames[main] = true
	if _, err := chromedp.Call(e.tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: newDocumentJS, WorldName: worldName}); err != nil {
		return fmt.Errorf("the replay scripts: %w", err)
	}
	if err := e.guard.enable(e.tab); err != nil {
		return fmt.Errorf("allowed domains: %w", err)
	}
	if e.userAgent == "" {
		if e.userAgent, err = learnUserAgent(e.tab); err != nil {
			return fmt.Errorf("user agent: %w", err)
		}
	}
	if e.userAgent != "" {
		if _, err := chromedp.Call(e.tab, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: e.userAgent}); err != nil {
			return fmt.Errorf("user agent: %w", err)
		}
	}
	// chromedp turns on the DOM and CSS agents for its own node queries,
	// which the executor does not make (its page calls find elements).
	// Left on, every navigation makes chromedp fetch the new document, and
	// every style a page adds (CSS-in-JS adds hundreds) is an event to us.
	for _, off := range []cdp.Command[cdp.Empty, cdp.Empty]{dom.Disable, css.Disable} {
		if _, err := chromedp.Call(e.tab, off, cdp.Empty{}); err != nil {
			return fmt.Errorf("%s: %w", off.Method, err)
		}
	}
	// Every tab behaves as the focused one: rows filed in parallel tabs
	// each have a page that opens its lists on focus (antd's Select does
	// only in a focused window), as the person's one window would.
	if _, err := chromedp.Call(e.tab, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		return fmt.Errorf("focus emulation: %w", err)
	}
	// The skill's viewport is the page's size, as the Recorder and
	// Playwright mean it: the window's is that less the browser's bars.
	if v := e.viewport; v != nil {
		p := emulation.SetDeviceMetricsOverrideParams{Width: int64(v.Width), Height: int64(v.Height)}
		if _, err := chromedp.Call(e.tab, emulation.SetDeviceMetricsOverride, p); err != nil {
			return fmt.Errorf("viewport: %w", err)
		}
	}
	return nil
}

// watch makes the executor's watchers of its tab's events.
func (e *Executor) watch(allowed []string) {
	e.nav, e.world, e.net = &navWatch{}, newWorld(), newNetWatch()
	e.guard, e.dialogs, e.downloads = newGuard(allowed), &dialogs{}, newDownloads()
	e.files = make(chan *page.EventFileChooserOpened, 1)
	e.guard.reply, e.dialogs.reply = e.reply, e.reply
}

// reply sends a command the tab waits on (a paused request, a dialog)
// from a goroutine of its own: the reader goroutine that saw the event
// must not wait for an answer it alone can read.
func (e *Executor) reply(call func(context.Context) error) {
	go func() {
		if err := call(e.tab); err != nil && e.tab.Err() == nil {
			e.log.Debug("reply to the page", "err", errKind(err))
		}
	}()
}

// observe runs on chromedp's reader goroutine for every event of the tab.
func (e *Executor) observe(ev any) {
	e.nav.observe(ev)
	e.world.observe(ev)
	e.net.observe(ev)
	e.guard.observe(ev)
	e.dialogs.observe(ev)
	e.downloads.observe(ev)
	if fc, ok := ev.(*page.EventFileChooserOpened); ok {
		select {
		case e.files <- fc:
		default: // a picker nobody asked for: the page opened it itself
		}
	}
}

// ErrClosed is returned by every method after Close.
var ErrClosed = errors.New("browser: the executor is closed")

// bind returns a context for the tab that also ends when ctx does, so a
// caller's deadline bounds the browser calls without closing the tab.
func (e *Executor) bind(ctx context.Context) (context.Context, context.CancelFunc) {
	cctx, cancel := context.WithCancel(e.tab)
	stop := context.AfterFunc(ctx, cancel)
	return cctx, func() { stop(); cancel() }
}

// Close closes the tab, and the browser when New launched it. It is safe to
// call more than once.
func (e *Executor) Close() error {
	e.closeOnce.Do(func() {
		if e.cancelTab != nil {
			e.cancelTab()
			e.cancelAll()
		}
		if e.launched != nil {
			// Quit, not kill: Chromium writes the profile (a site's
			// login) only when it shuts down by itself.
			e.launched.Quit(10 * time.Second)
		}
		if e.certs != nil {
			_ = e.certs.Close()
		}
		e.slot.Release() // after the browser exited: it counts until then
	})
	return nil
}

// gone reports whether the browser or the tab can no longer be driven, as
// opposed to a page that merely refused a step.
func (e *Executor) gone(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if e.tab.Err() != nil {
		return ErrClosed
	}
	if ch, err := chromedp.Detached(e.tab); err == nil {
		select {
		case <-ch:
			return errors.New("browser: the tab was closed or the browser is gone")
		default:
		}
	}
	pctx, cancel := context.WithTimeout(e.tab, 3*time.Second)
	defer cancel()
	if _, err := chromedp.Run(pctx, chromedp.Evaluate[int]("1")); err != nil {
		return fmt.Errorf("browser: the browser does not answer: %w", err)
	}
	return nil
}

// redactURL keeps a DevTools URL's host and drops its path (a session id).
func redactURL(u string) string {
	for i := len("ws://"); i < len(u); i++ {
		if u[i] == '/' {
			return u[:i]
		}
	}
	return u
}

// Tab opens another tab of the executor's browser and returns an executor
// of its own for it: rows filed in parallel, each tab with its own page
// state, all with the profile's cookies and login. Closing it closes the
// tab only.
func (e *Executor) Tab(ctx context.Context) (*Executor, error) {
	if e.tab.Err() != nil {
		return nil, ErrClosed
	}
	t := &Executor{log: e.log, findTimeout: e.findTimeout, shots: e.shots, filesDir: e.filesDir, userAgent: e.userAgent, viewport: e.viewport}
	t.watch(e.guard.allowed)
	t.tab, t.cancelTab = chromedp.NewContext(e.tab, chromedp.WithListener(t.observe))
	t.cancelAll = func() {}
	if err := t.open(ctx); err != nil {
		_ = t.Close()
		return nil, fmt.Errorf("browser: open another tab: %w", err)
	}
	return t, nil
}

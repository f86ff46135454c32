package session

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sync"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/replay/pick"
	"github.com/reprise-dev/reprise/skills"
)

// browsers are a hub worker's executors (hub.Tabs): a browser for each
// skill's browser section, started when a row of it first arrives, with a
// tab for each slot; and the desktop, when the worker offers it. A browser keeps to its section (allowed domains,
// proxy, certificates, window size), so two sections never share one; a
// browser no slot uses any more is closed when another starts.
type browsers struct {
	ctx      context.Context // the worker's: browsers live as long as it
	base     browser.Options
	profiles map[string]string
	slots    int

	mu   sync.Mutex
	open map[string]*sectionBrowser // by the section, as JSON
	at   []string                   // slot -> the section it files now

	desktop *WorkerDesktop // nil: the worker offers no desktop
	desk    *deskExec      // the desktop's executor, once a row needed it
	log     *slog.Logger
	name    string
}

// deskExec is the desktop's executor and what it holds.
type deskExec struct {
	skill   string // the skill its marks name
	exec    replay.Executor
	release func() // the grant
}

// sectionBrowser is one section's browser: tabs[0] is the browser's first
// executor, and closing it quits the browser.
type sectionBrowser struct {
	profile string
	tabs    []replay.Executor
}

func newBrowsers(ctx context.Context, base browser.Options, profiles map[string]string, slots int) *browsers {
	return &browsers{ctx: ctx, base: base, profiles: profiles, slots: slots,
		open: map[string]*sectionBrowser{}, at: make([]string, slots)}
}

// Slots is how many rows the worker files at once.
func (b *browsers) Slots() int { return b.slots }

// For is slot's tab of the browser for sk's section, started if need be.
// A skill whose profile this worker does not hold, or a desktop skill on
// a worker that offers none, is hub.ErrNotHere.
func (b *browsers) For(ctx context.Context, slot int, sk *skills.Skill) (replay.Executor, error) {
	var section *skills.Browser
	if sk != nil {
		if kind, _ := pick.Kind("", sk); kind == pick.Desktop {
			return b.desktopFor(ctx, slot, sk)
		}
		section = sk.Browser
	}
	profile := b.base.ProfileDir
	if section != nil && section.Profile != "" {
		dir, ok := b.profiles[section.Profile]
		if !ok {
			return nil, fmt.Errorf("%w: the skill's profile %q is not one this worker holds", hub.ErrNotHere, section.Profile)
		}
		profile = dir
	}
	key, err := json.Marshal(section)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.at[slot] = string(key)
	if sb := b.open[string(key)]; sb != nil {
		return sb.tabs[slot], nil
	}
	// One browser a profile: Chromium locks it. Another section's browser
	// on it, or any no slot files with, goes first.
	for k, sb := range b.open {
		if b.inUse(k) && sb.profile == profile {
			return nil, fmt.Errorf("%w: its profile is open in a browser for another skill's rows", hub.ErrNotNow)
		}
		if !b.inUse(k) {
			b.closeOne(k)
		}
	}
	o := b.base
	o.Skill, o.ProfileDir = section, profile
	ex, err := browser.New(b.ctx, o)
	if err != nil {
		return nil, err
	}
	tabs, err := Tabs(b.ctx, ex, b.slots-1)
	sb := &sectionBrowser{profile: profile, tabs: append([]replay.Executor{ex}, tabs...)}
	if err != nil {
		closeTabs(sb.tabs)
		return nil, err
	}
	b.open[string(key)] = sb
	return sb.tabs[slot], nil
}

func (b *browsers) inUse(key string) bool {
	for _, k := range b.at {
		if k == key {
			return true
		}
	}
	return false
}

func (b *browsers) closeOne(key string) {
	closeTabs(b.open[key].tabs)
	delete(b.open, key)
}

// close quits every browser, and lets the desktop go.
func (b *browsers) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k := range b.open {
		b.closeOne(k)
	}
	b.closeDesktop()
}

// desktopFor is the desktop's executor for sk's rows, in slot 0 alone: a
// desktop has one keyboard and pointer.
func (b *browsers) desktopFor(ctx context.Context, slot int, sk *skills.Skill) (replay.Executor, error) {
	switch {
	case b.desktop == nil:
		return nil, fmt.Errorf("%w: a desktop skill, and this worker offers no desktop", hub.ErrNotHere)
	case slot != 0:
		return nil, fmt.Errorf("%w: a desktop skill's rows run one at a time, in the first slot", hub.ErrNotNow)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.at[slot] = ""
	if b.desk != nil && b.desk.skill == sk.Name {
		return b.desk.exec, nil
	}
	b.closeDesktop()
	log := cmp.Or(b.log, slog.New(slog.DiscardHandler))
	guard, release, err := HoldDesktop(ctx, b.desktop.Grants, log)
	if err != nil {
		return nil, err
	}
	lease, err := desktop.NewLease(os.Getenv("DISPLAY"), fmt.Sprintf("worker %s, pid %d", b.name, os.Getpid()))
	if err != nil {
		release()
		return nil, err
	}
	lease.Logger = log
	quiet := b.desktop.Idle
	if quiet <= 0 {
		quiet = -1 // the desktop executor's "no wait"
	}
	// No frames: the recordings behind the skill are on the machine that
	// built it, so input goes to the element its target proves, without
	// the recorded screen's check.
	dctx, cancel := context.WithCancel(b.ctx) // the accessibility tree and grabber live as long
	ex, err := pick.New(dctx, sk, pick.Options{Kind: pick.Desktop, Guard: guard, Lease: lease, Quiet: quiet, NoMarks: b.desktop.NoMarks, Logger: log})
	if err != nil {
		cancel()
		release()
		return nil, err
	}
	b.desk = &deskExec{skill: sk.Name, exec: ex, release: func() { cancel(); release() }}
	return ex, nil
}

func (b *browsers) closeDesktop() {
	if b.desk != nil {
		_ = b.desk.exec.Close()
		b.desk.release()
		b.desk = nil
	}
}

// closeTabs closes the tabs, the browser's own executor last.
func closeTabs(tabs []replay.Executor) {
	for i := len(tabs) - 1; i >= 0; i-- {
		_ = tabs[i].Close()
	}
}

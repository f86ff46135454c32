package session

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/replay/pick"
	"github.com/reprise-dev/reprise/skills"
)

// browsers are a hub worker's executors (hub.Tabs): a browser for each
// skill's browser section, started when a row of it first arrives, with a
// tab for each slot. A browser keeps to its section (allowed domains,
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
// A desktop skill, or one whose profile this worker does not hold, is
// hub.ErrNotHere.
func (b *browsers) For(ctx context.Context, slot int, sk *skills.Skill) (replay.Executor, error) {
	var section *skills.Browser
	if sk != nil {
		if kind, _ := pick.Kind("", sk); kind == pick.Desktop {
			return nil, fmt.Errorf("%w: a desktop skill, and this worker files browser skills", hub.ErrNotHere)
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
			return nil, fmt.Errorf("%w yet: its profile is open in a browser for another skill's rows", hub.ErrNotHere)
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

// close quits every browser.
func (b *browsers) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k := range b.open {
		b.closeOne(k)
	}
}

// closeTabs closes the tabs, the browser's own executor last.
func closeTabs(tabs []replay.Executor) {
	for i := len(tabs) - 1; i >= 0; i-- {
		_ = tabs[i].Close()
	}
}

// Package live reads imported flows' elements on the pages the flows open,
// in a headless browser of its own, as a demonstration would have recorded
// them: what the tools that wrote the flows leave out.
package live

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/interop"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/skills"
)

// stepWait is how long one step's element is waited for on a page that
// renders after its load event.
const stepWait = 2 * time.Second

// Resolve reads each flow's elements on the pages it opens, in a headless
// browser on a fresh profile it removes after, and adds to each flow's
// notes, after prefix, what it completed and what it did not reach.
func Resolve(ctx context.Context, flows []interop.Flow, prefix string) error {
	profile, err := os.MkdirTemp("", "reprise-resolve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	ex, err := browser.New(ctx, browser.Options{ProfileDir: profile, NoSandbox: browser.SandboxOff(), FindTimeout: stepWait})
	if err != nil {
		return err
	}
	defer ex.Close()
	for i := range flows {
		notes, err := interop.Resolve(ctx, &flows[i], page{ex})
		if err != nil {
			return fmt.Errorf("%s: %w", flows[i].File, err)
		}
		for _, n := range notes {
			flows[i].Notes = append(flows[i].Notes, prefix+n)
		}
	}
	return nil
}

// page is interop's Page on the browser executor.
type page struct{ ex *browser.Executor }

func (p page) Open(ctx context.Context, url string) error {
	out, err := p.ex.Do(ctx, replay.Step{Step: skills.Step{Action: events.ActionNavigate, Value: url}})
	if err != nil {
		return err
	}
	if !out.OK {
		return errors.New(out.Error)
	}
	return nil
}

func (p page) Describe(ctx context.Context, sels []events.Selector) (interop.Element, bool, error) {
	ss := make([]skills.Selector, len(sels))
	for i, s := range sels {
		ss[i] = skills.Selector(s)
	}
	d, ok, err := p.ex.Describe(ctx, ss, stepWait)
	return interop.Element(d), ok, err
}

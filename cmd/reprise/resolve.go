package main

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

// resolveWait is how long --resolve waits for one step's element on a page
// that renders after its load event.
const resolveWait = 2 * time.Second

// resolveFlows reads each imported flow's elements on the pages the flow
// opens, in a headless browser on a fresh profile of its own, and adds to
// each flow's notes what it completed and what it did not reach.
func resolveFlows(ctx context.Context, flows []interop.Flow) error {
	profile, err := os.MkdirTemp("", "reprise-resolve-")
	if err != nil {
		return fmt.Errorf("--resolve: %w", err)
	}
	defer os.RemoveAll(profile)
	ex, err := browser.New(ctx, browser.Options{ProfileDir: profile, NoSandbox: browser.SandboxOff(), FindTimeout: resolveWait})
	if err != nil {
		return fmt.Errorf("--resolve: %w", err)
	}
	defer ex.Close()
	for i := range flows {
		notes, err := interop.Resolve(ctx, &flows[i], livePage{ex})
		if err != nil {
			return fmt.Errorf("--resolve %s: %w", flows[i].File, err)
		}
		for _, n := range notes {
			flows[i].Notes = append(flows[i].Notes, "--resolve: "+n)
		}
	}
	return nil
}

// livePage is interop's Page on the browser executor.
type livePage struct{ ex *browser.Executor }

func (p livePage) Open(ctx context.Context, url string) error {
	out, err := p.ex.Do(ctx, replay.Step{Step: skills.Step{Action: events.ActionNavigate, Value: url}})
	if err != nil {
		return err
	}
	if !out.OK {
		return errors.New(out.Error)
	}
	return nil
}

func (p livePage) Describe(ctx context.Context, sels []events.Selector) (interop.Element, bool, error) {
	ss := make([]skills.Selector, len(sels))
	for i, s := range sels {
		ss[i] = skills.Selector(s)
	}
	d, ok, err := p.ex.Describe(ctx, ss, resolveWait)
	return interop.Element(d), ok, err
}

package session

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/hub"
)

// Worker is a hub worker on this machine: a browser for each skill's
// browser section, with a tab for each row it files at once.
type Worker struct {
	Hub *Hub
	// Name tells this worker's claims from another's.
	Name string
	// Browser is what every browser of the worker starts with: its
	// ProfileDir (held by the caller) is the profile of a skill that
	// names none; a skill's browser section adds to it.
	Browser browser.Options
	// Profiles are the named profiles this worker holds, each logged in
	// by a person here: name -> folder, held by the caller. A skill that
	// names another profile is left to a worker that holds it.
	Profiles map[string]string
	Parallel int
	// Files is where a row's upload files are kept while it is filed.
	Files string
	// Ready, if set, is told once the worker takes rows.
	Ready  func()
	Logger *slog.Logger
}

// Run takes and files the hub's rows until ctx ends or the worker cannot
// go on (hub.Worker.Run).
func (w Worker) Run(ctx context.Context) error {
	if w.Parallel < 1 || w.Parallel > MaxParallel {
		return fmt.Errorf("%d rows at a time: want 1 to %d", w.Parallel, MaxParallel)
	}
	nc, js, err := hub.Connect(w.Hub.URLs, "reprise worker "+w.Name, w.Hub.Credentials)
	if err != nil {
		return err
	}
	defer nc.Close()
	if w.Browser.Logger == nil {
		w.Browser.Logger = w.Logger
	}
	b := newBrowsers(ctx, w.Browser, w.Profiles, w.Parallel)
	defer b.close()
	// The browser of a skill without a section starts now, so that a
	// machine that cannot start one says so before it takes a row.
	if _, err := b.For(ctx, 0, nil); err != nil {
		return err
	}
	if w.Ready != nil {
		w.Ready()
	}
	hw := &hub.Worker{JS: js, Key: w.Hub.Key, Name: w.Name, Tabs: b, Files: w.Files, Logger: w.Logger}
	return hw.Run(ctx)
}

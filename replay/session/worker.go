package session

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/hub"
)

// Worker is a hub worker on this machine: a browser for each skill's
// browser section, with a tab for each row it files at once, and the
// desktop when it offers it.
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
	// Desktop, if set, is this machine's desktop offered to desktop
	// skills' rows.
	Desktop *WorkerDesktop
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
	b.desktop, b.log, b.name = w.Desktop, w.Logger, w.Name
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

// WorkerDesktop is the desktop a worker offers: a desktop skill's rows
// run on it one at a time (in the worker's first slot), each under the
// desktop's lease, every input authorized under the grant the worker holds
// from this machine's daemon, which the person's Stop revokes.
type WorkerDesktop struct {
	Grants Grants
	// Idle and NoMarks are Local's.
	Idle    time.Duration
	NoMarks bool
}

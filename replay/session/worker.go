package session

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/hub"
)

// Worker is a hub worker on this machine: a browser of its own, with a tab
// for each row it files at once.
type Worker struct {
	Hub *Hub
	// Name tells this worker's claims from another's.
	Name     string
	Browser  browser.Options
	Parallel int
	// Ready, if set, is told once the browser is up and rows are taken.
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
	ex, err := browser.New(ctx, w.Browser)
	if err != nil {
		return err
	}
	defer ex.Close()
	tabs, err := Tabs(ctx, ex, w.Parallel-1)
	for _, t := range tabs {
		defer t.Close()
	}
	if err != nil {
		return err
	}
	if w.Ready != nil {
		w.Ready()
	}
	hw := &hub.Worker{JS: js, Key: w.Hub.Key, Name: w.Name, Executors: append([]replay.Executor{ex}, tabs...), Logger: w.Logger}
	return hw.Run(ctx)
}

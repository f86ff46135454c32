// Package pick chooses what replays a skill and builds it: the browser for
// a skill with web steps, else the desktop. The CLI's replay and the
// co-pilot's dry run both build their executor here.
//
// It is a package of its own because it needs both executors, and they
// import replay: the engine cannot import them back.
package pick

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/extract"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/marks"
	"github.com/reprise-dev/reprise/platform/screen"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/replay/desktop"
	"github.com/reprise-dev/reprise/skills"
)

// The executor kinds.
const (
	Auto    = "auto" // Browser when the skill has web steps, else Desktop
	Browser = "browser"
	Desktop = "desktop"
)

// ErrKind is returned for a kind that is none of Auto, Browser and Desktop.
var ErrKind = errors.New("no such executor")

// Options say which executor to build and how.
type Options struct {
	// Kind is Auto (the default when empty), Browser or Desktop.
	Kind string
	// Browser is the browser executor's options; its Logger defaults to
	// Logger.
	Browser browser.Options
	// Frame returns frame ref (a PNG) of recording recID. With it the
	// desktop executor sends input to a recorded point only where the
	// screen still looks as in the skill's first source recording; nil
	// sends it without that check.
	Frame func(ctx context.Context, recID, ref string) ([]byte, error)
	// Guard, if set, authorizes every desktop input right before it is
	// sent (the scope grant the replay holds).
	Guard desktop.Guard
	// Lease, if set, is the desktop lease the desktop executor holds for
	// each row, from its first input to its commit.
	Lease *desktop.Lease
	// Quiet is the desktop executor's wait for the person to leave the
	// keyboard (desktop.Options.Quiet).
	Quiet time.Duration
	// NoMarks turns off the marks that show where desktop input lands.
	NoMarks bool
	Logger  *slog.Logger
}

// Kind resolves kind for skill: Auto (or empty) is Browser when a step
// navigates or names selectors, else Desktop.
func Kind(kind string, skill *skills.Skill) (string, error) {
	switch kind {
	case Browser, Desktop:
		return kind, nil
	case Auto, "":
		for _, st := range skill.Steps {
			if st.Action == events.ActionNavigate || len(st.Selectors) > 0 {
				return Browser, nil
			}
		}
		return Desktop, nil
	}
	return "", fmt.Errorf("%w %q: want auto, browser or desktop", ErrKind, kind)
}

// New builds the executor o.Kind names for skill. The desktop's
// accessibility tree and screen grabber are released when ctx ends; the
// caller closes the executor.
func New(ctx context.Context, skill *skills.Skill, o Options) (replay.Executor, error) {
	kind, err := Kind(o.Kind, skill)
	if err != nil {
		return nil, err
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if kind == Browser {
		bo := o.Browser
		if bo.Logger == nil {
			bo.Logger = o.Logger
		}
		return browser.New(ctx, bo)
	}
	do := desktop.Options{Guard: o.Guard, Lease: o.Lease, Quiet: o.Quiet, Logger: log, MarkSkill: skill.Name}
	// The overlay before the input's connection: an X extension's Init
	// writes xgb's global tables, which a running connection reads.
	if !o.NoMarks {
		if ov, err := marks.New(""); err == nil {
			do.Marks = ov
			context.AfterFunc(ctx, func() { _ = ov.Close() })
		} else {
			log.Info("replaying without marks", "reason", err)
		}
	}
	in, err := input.New("")
	if err != nil {
		return nil, fmt.Errorf("desktop replay: %w", err)
	}
	do.Input = in
	if tree, closeAX, err := ax.Open("", log); err == nil {
		do.AX = tree
		context.AfterFunc(ctx, func() { _ = closeAX() })
	} else {
		log.Info("replaying without the accessibility tree: input at recorded points only", "reason", err)
	}
	// Input at a recorded point goes only where the screen still looks as
	// in the first demonstration's frame, and is read back (by the field
	// itself where the system can, else by OCR).
	if grab, closeGrab, err := screen.Open(""); err == nil {
		do.Screen = desktop.ScreenOf(marks.Hidden(grab, do.Marks))
		context.AfterFunc(ctx, func() { _ = closeGrab() })
		if len(skill.SourceRecordings) > 0 && o.Frame != nil {
			rec := skill.SourceRecordings[0]
			do.Recorded = func(ctx context.Context, ref string) ([]byte, error) { return o.Frame(ctx, rec, ref) }
		}
		if ok, _ := extract.OCRAvailable(ctx); ok {
			do.OCR = func(ctx context.Context, img []byte) (string, error) {
				res, err := extract.OCR(ctx, img)
				return res.Text(), err
			}
		}
	}
	return desktop.New(do)
}

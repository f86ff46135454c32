package desktop

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// errNoLister is why a text cannot be looked for: the tree cannot list a
// window.
var errNoLister = errors.New("this accessibility tree cannot list a window")

// desktopConditions sorts a destructive step's success conditions (its
// Assert, taken from what the demonstrations showed after it) into what
// the desktop checks: texts that must show in the step's window, and
// whether the form must be reset (its fields no longer hold the row, or
// its window closed). URL conditions are left out: a desktop app has no
// URL, and a skill built from recordings that saw nothing carries a
// guessed url_changed. The others (an element by CSS, a request's status)
// cannot be checked on the desktop: unprovable names them.
func desktopConditions(cs skills.Conditions) (texts []skills.Condition, reset bool, unprovable []string) {
	for _, c := range cs {
		switch c.Kind {
		case skills.CondText:
			texts = append(texts, c)
		case skills.CondFormReset:
			reset = true
		case skills.CondURLChanged, skills.CondURLUnchanged, skills.CondURLContains:
		default:
			unprovable = append(unprovable, c.Kind)
		}
	}
	return texts, reset, unprovable
}

// tookEffect proves that the row's destructive step, which ran, took
// effect as the demonstrations showed: every text their windows showed
// after it shows (the row's own values filled in), and the form was reset
// when they say so, or when they say nothing (fieldsTookEffect). Without
// that proof the step fails after it ran, and the engine reports the row
// unknown, never committed on faith.
func (e *Executor) tookEffect(ctx context.Context, st replay.Step, out replay.Outcome) replay.Outcome {
	texts, reset, unprovable := desktopConditions(st.Assert)
	what := fmt.Sprintf("step %d (%s %s): ran, but", st.Index+1, st.Action, st.Label)
	if len(unprovable) > 0 {
		e.filled = nil
		return failedAfter(out, "%s its success check (%s) cannot be checked on the desktop: check the row yourself", what, strings.Join(unprovable, ", "))
	}
	if reset || len(texts) == 0 {
		if out = e.fieldsTookEffect(ctx, st, out); !out.Committed {
			return out
		}
	} else {
		e.filled = nil
	}
	for _, c := range texts {
		wait := e.o.FindTimeout
		if d, err := time.ParseDuration(c.Timeout); err == nil && d > 0 {
			wait = d
		}
		shown, err := e.shows(ctx, st.Floor.ActiveWindow, c.Value, wait)
		if err != nil {
			return failedAfter(out, "%s the window cannot be read to see whether it took effect: %v", what, err)
		}
		if !shown {
			f := failedAfter(out, "%s the window does not show %q, as it did after every demonstration", what, c.Value)
			f.Error = st.Mask(f.Error)
			return f
		}
	}
	out.Committed = true
	return out
}

// shows reports whether the window titled window shows text (in an
// element's name or value, compared folded) within wait.
func (e *Executor) shows(ctx context.Context, window, text string, wait time.Duration) (bool, error) {
	l, ok := e.o.AX.(ax.Lister)
	if !ok {
		return false, errNoLister
	}
	want := skills.Loose(text)
	for deadline := time.Now().Add(wait); ; {
		nodes, err := l.List(ctx, window, maxNodes)
		if err == nil {
			for _, n := range nodes {
				if strings.Contains(skills.Loose(n.Name), want) || strings.Contains(skills.Loose(n.Value), want) {
					return true, nil
				}
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false, nil
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

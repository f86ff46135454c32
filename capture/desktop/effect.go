package desktop

import (
	"context"
	"slices"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// Observer is an Enricher that can read a window whole: what success
// looked like after a click on a button or an Enter (a status text that
// appeared, the form emptied, the window closed) is recorded on the step
// as its Effect, which skills turn into the step's success conditions.
// Window is called from the emitting goroutine with a deadline in ctx.
type Observer interface {
	Window(ctx context.Context, title string) (WindowState, error)
}

// WindowState is what a window showed at one moment.
type WindowState struct {
	// Gone says no window has that title (it closed).
	Gone bool
	// Texts are the texts it showed (labels, status texts), in order.
	Texts []string
	// Fields counts its input fields, and Filled those that hold text or a
	// choice (never read from a password field).
	Fields, Filled int
}

// Effect observation bounds: how long after the step the window is read
// until it has stopped changing, and how much of it a step keeps.
const (
	effectWait   = 1500 * time.Millisecond
	effectSettle = 200 * time.Millisecond
	maxTexts     = 5
	maxTextLen   = 120
)

// commits says whether a step may commit a form: a click on a button, or
// Enter.
func commits(st events.Step) bool {
	return st.Action == events.ActionSubmit ||
		st.Action == events.ActionClick && st.Value == nil && st.Enrichment != nil && st.Enrichment.Role == "button"
}

// seeWindow remembers what a window showed before the person's first press
// in it, to tell later what a step made appear.
func (p *Pipeline[E]) seeWindow(ctx context.Context, title string) {
	if p.observe == nil || title == "" {
		return
	}
	if _, ok := p.shown[title]; ok {
		return
	}
	if ws, ok := p.readWindow(ctx, title); ok && !ws.Gone {
		p.shown[title] = ws.Texts
	}
}

// effect reads the step's window until it stops changing, and says what
// appeared in it since it was last seen, whether its fields emptied, and
// whether it closed (counted as a reset: its fields no longer hold the
// row, as replay proves it).
func (p *Pipeline[E]) effect(ctx context.Context, st events.Step) *events.Effect {
	title := st.ActiveWindow
	before, seen := p.shown[title]
	if p.observe == nil || title == "" || !seen {
		return nil
	}
	start := time.Now()
	var last WindowState
	var changed time.Time
	for {
		ws, ok := p.readWindow(ctx, title)
		if !ok {
			return nil
		}
		if !sameState(ws, last) || changed.IsZero() {
			last, changed = ws, time.Now()
		}
		if time.Since(changed) >= effectSettle && time.Since(start) >= effectSettle || time.Since(start) >= effectWait || ctx.Err() != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	e := &events.Effect{URLUnknown: true, Millis: int(changed.Sub(start) / time.Millisecond)}
	if last.Gone {
		e.FormReset = true
		delete(p.shown, title)
		return e
	}
	for _, t := range last.Texts {
		if !slices.Contains(before, t) && len(e.Texts) < maxTexts {
			if r := []rune(t); len(r) > maxTextLen {
				t = string(r[:maxTextLen])
			}
			e.Texts = append(e.Texts, t)
		}
	}
	e.FormReset = last.Fields > 0 && last.Filled == 0
	p.shown[title] = last.Texts
	return e
}

func (p *Pipeline[E]) readWindow(ctx context.Context, title string) (WindowState, bool) {
	wctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	ws, err := p.observe.Window(wctx, title)
	if err != nil {
		p.log.Debug("read a window", logKeyErr, err)
		return WindowState{}, false
	}
	return ws, true
}

func sameState(a, b WindowState) bool {
	return a.Gone == b.Gone && a.Fields == b.Fields && a.Filled == b.Filled && slices.Equal(a.Texts, b.Texts)
}

package desktop

import (
	"context"
	"image"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Choice kinds a ChoiceEnricher reports.
const (
	ChoiceCombo = "combo" // a combo box: its options in a popup
	ChoiceList  = "list"  // a list box: its options shown
	ChoiceCheck = "check" // a check box, switch or toggle
)

// Choice is the choice control a press landed on, as the tree showed it
// when the press was looked at.
type Choice struct {
	Kind string
	// Control is the control as a step names it (role, label, path) with,
	// for a combo or list, its options.
	Control *events.Enrichment
	// Picked is the option the press picked (an item of a list, or of an
	// open combo box's popup); "" for a press on the control itself.
	Picked string
	// Selected is the option selected when read; Checked a check box's
	// state then (before the press took effect).
	Selected string
	Checked  bool
	// Bounds are the control's own bounds on the screen: a press there
	// opens a combo box, even when what the tree shows at the point by the
	// time the press is looked at is the option its popup drew over it.
	Bounds image.Rectangle
	// Handle is the enricher's own handle on the control, for Reread.
	Handle any
}

// ChoiceEnricher is an Enricher that knows choice controls. With it a
// pick in a combo box or a list box becomes one select step carrying the
// control's options (value: the option's label), not clicks on whatever
// lies under a popup; and a click on a check box carries the state it
// leaves the box in ("true" or "false"), so that a box ticked in one
// demonstration only becomes a yes/no parameter. Its methods are called
// from the emitting goroutine with a short deadline in ctx.
type ChoiceEnricher interface {
	Enricher
	// ChoiceAt returns the choice control at a point; nil and no error
	// when there is none.
	ChoiceAt(ctx context.Context, x, y int) (*Choice, error)
	// Reread reads a control ChoiceAt returned as it is now.
	Reread(ctx context.Context, c *Choice) (*Choice, error)
}

// openCombo is a combo box a press opened: the next press picks in its
// popup, or dismisses it.
type openCombo struct {
	choice *Choice
	raw    Raw
}

// choiceish says whether the element a press found may be a choice
// control or in one (axpath.ChoiceOn, in any tree's vocabulary): only then
// is the tree asked again (ChoiceAt).
func choiceish(e *events.Enrichment) bool {
	if e == nil {
		return false
	}
	switch e.Role {
	case "combobox", "menuitem", "checkbox", "switch", "listbox", "listitem", "menuitemcheckbox":
		return true
	}
	if e.AXPath == nil {
		return false
	}
	_, _, _, ok := axpath.ChoiceOn(axpath.Parse(*e.AXPath))
	return ok
}

// choice handles a button-1 press on a choice control, or the press after
// one opened a combo box; handled says the press is taken into a choice
// and is no click of its own.
func (p *Pipeline[E]) choice(ctx context.Context, r Raw) (handled bool) {
	if p.choices == nil || r.Button != 1 || (p.open == nil && !choiceish(r.Enrichment)) {
		return false
	}
	ch := p.choiceAt(ctx, r.X, r.Y)
	if op := p.open; op != nil {
		p.open = nil
		if ch != nil && ch.Kind == ChoiceCombo && ch.Picked != "" && sameControl(ch.Control, op.choice.Control) {
			p.emitChoice(ctx, events.ActionSelect, op.choice, ch.Picked, op.raw)
			return true
		}
		// The popup may have closed before this press was looked at: the
		// combo box tells what it holds now. What the tree shows at the
		// press's point is then whatever the popup covered (another
		// list's item), so a busy toolkit is given time to show the pick
		// before the press is taken for a press of its own.
		if now := p.reread(ctx, op.choice, choiceSettle); now != nil && now.Selected != "" && now.Selected != op.choice.Selected {
			p.emitChoice(ctx, events.ActionSelect, op.choice, now.Selected, op.raw)
			return true
		}
	}
	if ch == nil {
		return false
	}
	switch ch.Kind {
	case ChoiceCombo:
		p.emitAll(ctx, p.assembler.Flush())
		if ch.Picked != "" && !image.Pt(r.X, r.Y).In(ch.Bounds) { // a pick in a popup whose opening was not seen
			p.emitChoice(ctx, events.ActionSelect, ch, ch.Picked, r)
			return true
		}
		p.open = &openCombo{choice: ch, raw: r}
		return true
	case ChoiceList:
		if ch.Picked == "" {
			return false // the list's empty space
		}
		p.emitAll(ctx, p.assembler.Flush())
		p.emitChoice(ctx, events.ActionSelect, ch, ch.Picked, r)
		return true
	case ChoiceCheck:
		// The box toggles when the button is released, which may be
		// before or after this press is looked at: its state is read once
		// the person has moved on (settleCheck).
		p.emitAll(ctx, p.assembler.Flush())
		p.check = &openCombo{choice: ch, raw: r}
		return true
	}
	return false
}

// settleCheck emits the click on a check box pressed before, with the
// state the box is in now that the person did something else (or capture
// ended): the state the click left.
func (p *Pipeline[E]) settleCheck(ctx context.Context) {
	pc := p.check
	if pc == nil {
		return
	}
	p.check = nil
	state := !pc.choice.Checked // what the click would leave, should the box not answer
	cctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	if now, err := p.choices.Reread(cctx, pc.choice); err == nil {
		state = now.Checked
	} else {
		p.log.Debug("reread a check box", logKeyErr, err)
	}
	p.emitChoice(ctx, events.ActionClick, pc.choice, boolWord(state), pc.raw)
}

// flushChoice emits the choice of a combo box still open at the end of
// capture, if its selection changed.
func (p *Pipeline[E]) flushChoice(ctx context.Context) {
	p.settleCheck(ctx)
	op := p.open
	p.open = nil
	if op == nil {
		return
	}
	if now := p.reread(ctx, op.choice, p.timeout); now != nil && now.Selected != "" && now.Selected != op.choice.Selected {
		p.emitChoice(ctx, events.ActionSelect, op.choice, now.Selected, op.raw)
	}
}

// emitChoice emits a select of option (or a check box click leaving the
// state value) at the press r that began it.
func (p *Pipeline[E]) emitChoice(ctx context.Context, action string, ch *Choice, value string, r Raw) {
	var enr *events.Enrichment
	if ch.Control != nil {
		c := *ch.Control
		enr = &c
	}
	p.emit(ctx, Assembled{At: r.Time, Step: events.Step{
		TS:           events.Stamp(r.Time),
		Actor:        events.ActorHuman,
		Action:       action,
		Cursor:       []int{r.X, r.Y},
		ActiveApp:    r.Window.App,
		ActiveWindow: r.Window.Title,
		Enrichment:   enr,
		Value:        &events.Value{Raw: value, Type: events.ValueEnum},
		Outcome:      events.OutcomeOK,
	}})
}

// choiceAt reads the choice control at a point. A press on a choice
// taken for a plain click records the wrong step (a combo box opened as a
// click, then the pick in its popup as a pick in the list it covered), so
// a read is given choiceSettle, and one that fails is tried again within
// it: on a loaded desktop the toolkit answers late.
func (p *Pipeline[E]) choiceAt(ctx context.Context, x, y int) *Choice {
	deadline := time.Now().Add(max(choiceSettle, p.timeout))
	for {
		cctx, cancel := context.WithDeadline(ctx, deadline)
		ch, err := p.choices.ChoiceAt(cctx, x, y)
		cancel()
		if err == nil {
			return ch
		}
		p.log.Debug("read a choice", logKeyErr, err)
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// choiceSettle is how long a choice control is read at a press, and how
// long a combo box opened by one press is read again, at the next press
// that picked nothing in its popup, for the pick it may show late: on a
// loaded desktop the toolkit has taken over a second to answer.
var choiceSettle = 3 * time.Second

// reread reads c again until its selection changed or within passed (the
// pick takes effect when the button is released, after the press), and
// returns what it read last; nil when no read answered.
func (p *Pipeline[E]) reread(ctx context.Context, c *Choice, within time.Duration) *Choice {
	deadline := time.Now().Add(within)
	var last *Choice
	for {
		cctx, cancel := context.WithTimeout(ctx, p.timeout)
		now, err := p.choices.Reread(cctx, c)
		cancel()
		if err != nil {
			p.log.Debug("reread a choice", logKeyErr, err)
		} else if last = now; now.Selected != c.Selected {
			return now
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return last
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// sameControl says whether two enrichments name one control.
func sameControl(a, b *events.Enrichment) bool {
	if a == nil || b == nil {
		return false
	}
	return a.Role == b.Role && a.Label == b.Label && (a.AXPath == nil) == (b.AXPath == nil) && (a.AXPath == nil || *a.AXPath == *b.AXPath)
}

func boolWord(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

package heal

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/model"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// attempt is one step's healing under way.
type attempt struct {
	st     replay.Step
	m      masker
	change Change
	tried  []string // what was done this step, for the model
	calls  int
	tokens int
	shown  []string // parameters whose placeholders the model was shown
	sent   bool     // a click before the step may have sent something: the row is unproved if it fails
	notes  []string // for the report: what was ignored on the way (a cache entry, a pin), by step
}

// heal finds st's element from the cache, else with the model; missed is
// the outcome of the recorded way (its error says why).
func (e *Executor) heal(ctx context.Context, st replay.Step, missed replay.Outcome) (replay.Outcome, error) {
	a := &attempt{st: st, m: newMasker(st.Values), change: Change{Step: st.Index}, notes: slices.Clone(missed.Notes)}
	missed.Notes = nil // they are the attempt's now, on whatever outcome it ends with
	why := a.m.mask(missed.Error)
	if e.o.Cache != nil && e.mode(st) == skills.AIOnMiss {
		if entry, ok := e.o.Cache.Lookup(st.Index, st.Template, st.Values); ok {
			out, done, err := e.replayCached(ctx, a, entry)
			if err != nil || done {
				return out, err
			}
			why += "; what worked before on this host did not fit the page"
		}
	}
	if e.o.Model == nil {
		return e.fail(a, missed, "no model is configured for ai: "+e.mode(st)), nil
	}
	for range e.o.MaxTurns {
		scr, err := e.o.Look(ctx, st)
		if err != nil {
			return replay.Outcome{}, fmt.Errorf("step %d: read the page for the model: %w", st.Index+1, err)
		}
		list, refs := outline(scr.Tree, a.m)
		title := a.m.mask(scr.Title)
		a.note(list + title)
		mv, err := e.ask(ctx, a, request(e.o.Skill, st.Index, why, a.tried, title, list), refs, func(mv Move) error {
			return fits(a, scr, mv)
		})
		if err != nil {
			return e.fail(a, missed, err.Error()), nil
		}
		switch {
		case mv.Done:
			return e.fail(a, missed, "the model answered that the step needs nothing more, which reprise cannot prove"), nil
		case mv.Ask != "":
			return e.fail(a, missed, "the model could not go on: "+a.m.mask(mv.Ask)), nil
		}
		el := scr.Tree[mv.Ref]
		what := fmt.Sprintf("%s %q", el.Role, a.m.mask(cut(el.Name)))
		sel, err := pin(scr.Tree, mv.Ref)
		if err != nil {
			a.tried = append(a.tried, fmt.Sprintf("%s on %s: refused: %v", mv.Kind, what, err))
			continue
		}
		kept, ok := keep(sel, a.m)
		if !ok {
			a.tried = append(a.tried, fmt.Sprintf("%s on %s: refused: %v", mv.Kind, what, errUnpinnable))
			continue
		}
		if mv.Kind == KindClick {
			out, err := e.click(ctx, a, sel)
			if errors.Is(err, errSent) {
				return e.fail(a, missed, out.Error+": reprise cannot tell what it did, so it stops here"), nil
			}
			if err != nil {
				return out, err
			}
			if !out.OK {
				a.tried = append(a.tried, fmt.Sprintf("click on %s: failed: %s", what, a.m.mask(out.Error)))
				continue
			}
			a.change.Before = append(a.change.Before, kept)
			a.tried = append(a.tried, fmt.Sprintf("click on %s: done", what))
			continue
		}
		out, err := e.step(ctx, a, sel)
		if err != nil || out.OK || !out.Missed {
			if err == nil && out.OK {
				a.change.Target = kept
				e.keep(a)
			}
			return e.counted(a, out, replay.ViaModel), err
		}
		a.tried = append(a.tried, fmt.Sprintf("step on %s: %s", what, a.m.mask(out.Error)))
	}
	return e.fail(a, missed, fmt.Sprintf("the model did not find the element in %d moves", e.o.MaxTurns)), nil
}

// replayCached runs a cache entry; done is false when the page did not
// fit it before the step ran (the model goes on from there, told what ran).
// Each element of the entry must fit the step as a model's answer must
// (fit.go): one that does not ends the entry's use, with a note.
func (e *Executor) replayCached(ctx context.Context, a *attempt, entry Entry) (replay.Outcome, bool, error) {
	for _, b := range entry.Before {
		sel, err := b.Fill(a.st.Values)
		if err != nil {
			return replay.Outcome{}, false, nil
		}
		// A click before the step is needed once in a while (a banner
		// shows until accepted): one whose element is not there is skipped.
		scr, err := e.o.Look(ctx, a.st)
		if err != nil {
			return replay.Outcome{}, true, fmt.Errorf("step %d: read the page: %w", a.st.Index+1, err)
		}
		i, err := selector.Match(sel, scr.Tree)
		if err != nil {
			continue
		}
		if err := fitClick(a.st, scr, i); err != nil {
			e.unfit(ctx, a, "the replay cache's click before it", err)
			return replay.Outcome{}, false, nil
		}
		out, err := e.click(ctx, a, sel)
		if errors.Is(err, errSent) {
			return e.fail(a, replay.Outcome{Error: a.m.mask(out.Error)}, "reprise cannot tell what it did, so it stops here"), true, nil
		}
		if err != nil {
			return out, true, err
		}
		if !out.OK {
			a.tried = append(a.tried, fmt.Sprintf("click on %s (what worked before): failed", b))
			return out, false, nil
		}
		a.change.Before = append(a.change.Before, b)
		a.tried = append(a.tried, fmt.Sprintf("click on %s (what worked before): done", b))
	}
	sel, err := entry.Target.Fill(a.st.Values)
	if err != nil {
		return replay.Outcome{}, false, nil
	}
	scr, err := e.o.Look(ctx, a.st)
	if err != nil {
		return replay.Outcome{}, true, fmt.Errorf("step %d: read the page: %w", a.st.Index+1, err)
	}
	i, err := selector.Match(sel, scr.Tree)
	if err != nil {
		return replay.Outcome{}, false, nil // not on the page (once, or several times): the model finds it
	}
	if err := fitStep(a.st, a.m, scr, i); err != nil {
		e.unfit(ctx, a, "the replay cache's element", err)
		return replay.Outcome{}, false, nil
	}
	out, err := e.step(ctx, a, sel)
	if err != nil || !out.OK && out.Missed {
		return out, err != nil, err
	}
	if out.OK {
		a.change.Target = entry.Target
		e.record(a)
	}
	return e.counted(a, out, replay.ViaCache), true, nil
}

// click runs a click the model chose (or the cache holds) before the
// step, watched as a submit is: a click before a step must send nothing,
// and one that did (a request left, the page moved) ends the healing with
// the row unproved (errSent). It runs in a dry run too (a banner must go
// for the fields to be filled), watched the same way.
func (e *Executor) click(ctx context.Context, a *attempt, sel selector.Selector) (replay.Outcome, error) {
	c := replay.Step{Row: a.st.Row, Index: a.st.Index, Artifacts: a.st.Artifacts, Values: a.st.Values,
		Step: skills.Step{Action: "click", Target: &sel, Destructive: e.o.WatchesClicks}}
	c.Floor.ActiveWindow = a.st.Floor.ActiveWindow
	out, err := e.Executor.Do(ctx, c)
	if !e.o.WatchesClicks && err == nil && out.OK {
		a.sent = true // nothing shows what it did
	}
	if err == nil && out.OK && out.Sent {
		a.sent = true
		out.OK = false
		out.Error = fmt.Sprintf("the click on %s before step %d sent something to the site or left the page", a.m.mask(sel.String()), a.st.Index+1)
		out.Missed = false
		return out, errSent
	}
	return out, err
}

// errSent ends a healing whose click sent something: see click.
var errSent = errors.New("a click before the step sent something")

// step runs the step itself on the element sel names, with its own value,
// read-back and success check.
func (e *Executor) step(ctx context.Context, a *attempt, sel selector.Selector) (replay.Outcome, error) {
	st := a.st
	st.Target, st.Selectors, st.AXPath = &sel, nil, nil
	return e.Executor.Do(ctx, st)
}

// fits says why a model's move names an element that does not fit the
// step (fit.go), nil when it fits or names none.
func fits(a *attempt, scr Screen, mv Move) error {
	var err error
	switch mv.Kind {
	case KindStep:
		err = fitStep(a.st, a.m, scr, mv.Ref)
	case KindClick:
		err = fitClick(a.st, scr, mv.Ref)
	}
	if err != nil {
		return fmt.Errorf("element e%d does not fit step %d: %w", mv.Ref, a.st.Index+1, err)
	}
	return nil
}

// unfit notes that what was kept for the step (what) names an element
// that does not fit it: it is not used, and the model is asked instead.
func (e *Executor) unfit(ctx context.Context, a *attempt, what string, why error) {
	note := fmt.Sprintf("step %d (%s): %s does not fit the step (%v): ignored", a.st.Index+1, a.st.Action, what, why)
	a.notes = append(a.notes, note)
	e.o.Logger.WarnContext(ctx, "replay cache entry ignored", "step", a.st.Index+1, "reason", why)
}

// ask asks the model for its next move, with one correction for an
// answer that is not one, or names an element that does not fit (check).
func (e *Executor) ask(ctx context.Context, a *attempt, text string, refs map[string]int, check func(Move) error) (Move, error) {
	req := model.Request{System: system, Messages: []model.Message{{Role: model.RoleUser, Parts: []model.Part{{Text: text}}}}, MaxTokens: 200}
	for try := 0; ; try++ {
		resp, err := e.o.Model.Complete(ctx, req)
		a.calls++
		a.tokens += resp.InputTokens + resp.OutputTokens
		if err != nil {
			return Move{}, fmt.Errorf("the model did not answer: %w", err)
		}
		mv, err := decode(resp.Text, refs)
		if err == nil {
			if err = check(mv); err == nil {
				return mv, nil
			}
		}
		e.o.Logger.WarnContext(ctx, "model answer rejected", "step", a.st.Index+1, "try", try+1, "reason", err)
		if try == 1 {
			return Move{}, fmt.Errorf("the model's answer was refused twice: %v", err)
		}
		req.Messages = append(req.Messages,
			model.Message{Role: model.RoleAssistant, Parts: []model.Part{{Text: resp.Text}}},
			model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: "That answer was refused: " + err.Error() + ". Answer again."}}})
	}
}

// note keeps which parameters' placeholders the model was shown.
func (a *attempt) note(text string) {
	for _, name := range shownIn(text) {
		if _, ok := a.st.Values[name]; ok && !slices.Contains(a.shown, name) {
			a.shown = append(a.shown, name)
		}
	}
}

// keep records a change that went through and caches it.
func (e *Executor) keep(a *attempt) {
	e.record(a)
	if e.o.Cache != nil {
		if err := e.o.Cache.Store(a.change, a.st.Template, a.shown, a.st.Values); err != nil {
			e.o.Logger.Warn("replay cache not saved", "step", a.st.Index+1, "err", err)
		}
	}
}

func (e *Executor) record(a *attempt) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.healed[a.st.Row] = append(e.healed[a.st.Row], a.change)
}

// counted is out with the attempt's cost and, when it went through, what
// changed.
func (e *Executor) counted(a *attempt, out replay.Outcome, via string) replay.Outcome {
	out.ModelCalls += a.calls
	out.Tokens += a.tokens
	out.Notes = append(out.Notes, a.notes...)
	if out.OK {
		out.Via = via
		out.Healed = append(out.Healed, a.change.Describe(a.st.Template)...)
	} else if a.sent {
		out.Sent, out.Watched = true, false // what the click sent is not proved
	}
	return out
}

// fail is the outcome of a healing that did not find the element: the
// recorded way's error, then why the model did not either.
func (e *Executor) fail(a *attempt, missed replay.Outcome, why string) replay.Outcome {
	out := missed
	out.OK = false
	out.Error = strings.TrimSuffix(cmp.Or(missed.Error, fmt.Sprintf("step %d (%s)", a.st.Index+1, a.st.Action)), ".") + "; " + a.m.mask(why)
	if !a.sent && a.st.Destructive {
		out.Watched, out.Sent = true, false // the step never ran and no click sent anything
	}
	return e.counted(a, out, "")
}

package heal

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// runPins runs the step's pinned steps for this host's system in place of
// its recording: each by its selector, typing the row's values; the last
// click of a step that files carries the step's success check. The
// outcome misses (Missed) at the first pin that did not go through,
// naming it.
func (e *Executor) runPins(ctx context.Context, st replay.Step, pins []skills.Pin) (replay.Outcome, error) {
	last := len(pins) - 1
	var out replay.Outcome
	for i, p := range pins {
		name := fmt.Sprintf("pinned step %d of %d (%s) for %s", i+1, len(pins), p.Kind(), runtime.GOOS)
		pst := replay.Step{Row: st.Row, Index: st.Index, DryRun: st.DryRun, Artifacts: st.Artifacts, Values: st.Values, Filled: st.Filled}
		var err error
		switch {
		case p.Click != nil:
			pst.Step = skills.Step{Action: "click", Target: p.Click, Floor: skills.Floor{ActiveWindow: st.Floor.ActiveWindow}}
			if i == last && st.Destructive {
				pst.Destructive, pst.Assert = true, st.Assert
			}
		case p.Type != nil:
			var v string
			if v, err = skills.Expand(p.Type.Text, st.Values); err == nil {
				into := p.Type.Into
				pst.Step = skills.Step{Action: "fill", Target: &into, Value: v, ReadBack: &skills.ReadBack{Kind: skills.ReadBackValue, Expect: v},
					Floor: skills.Floor{ActiveWindow: st.Floor.ActiveWindow}}
			}
		case p.Key != "":
			if p.Focus != nil {
				focus, ferr := p.Focus.Fill(st.Values)
				if ferr != nil {
					return pinMiss(st, name, ferr.Error()), nil
				}
				fst := pst
				fst.Step = skills.Step{Action: "click", Target: &focus, Floor: skills.Floor{ActiveWindow: st.Floor.ActiveWindow}}
				if why, err := e.pinFits(ctx, st, focus, false, false); err != nil || why != nil {
					if err != nil {
						return replay.Outcome{}, err
					}
					return e.pinUnfit(ctx, st, name+": focus", why, i), nil
				}
				if out, err = e.Executor.Do(ctx, fst); err != nil || !out.OK {
					if err != nil {
						return out, err
					}
					return pinMiss(st, name+": focus", out.Error), nil
				}
			}
			pst.Step = skills.Step{Action: "run", Value: p.Key, Floor: skills.Floor{ActiveWindow: st.Floor.ActiveWindow}}
		case p.Wait != "":
			d, _ := time.ParseDuration(p.Wait) // validated
			select {
			case <-ctx.Done():
				return replay.Outcome{}, ctx.Err()
			case <-time.After(d):
			}
			continue
		default:
			return pinMiss(st, name, "no executor scrolls yet: this pin cannot run"), nil
		}
		if err != nil {
			return pinMiss(st, name, err.Error()), nil
		}
		if pst.Target != nil {
			sel, ferr := pst.Target.Fill(st.Values)
			if ferr != nil {
				return pinMiss(st, name, ferr.Error()), nil
			}
			pst.Target = &sel
			why, err := e.pinFits(ctx, st, sel, p.Type != nil, p.Click != nil && i == last)
			if err != nil {
				return replay.Outcome{}, err
			}
			if why != nil {
				return e.pinUnfit(ctx, st, name, why, i), nil
			}
		}
		if out, err = e.Executor.Do(ctx, pst); err != nil {
			return out, err
		}
		if !out.OK {
			miss := pinMiss(st, name, out.Error)
			miss.Missed, miss.Sent, miss.Watched, miss.Status = out.Missed, out.Sent, out.Watched, out.Status
			if i > 0 {
				miss.Missed = false // pins before it ran: the model does not take over halfway
			}
			return miss, nil
		}
	}
	if st.Destructive && (last < 0 || pins[last].Click == nil) {
		return pinMiss(st, "the pinned steps", "a step that files must end its pins with a click, which carries its success check"), nil
	}
	out.Via = replay.ViaPinned
	return out, nil
}

// pinFits says why the element sel names does not fit st (fit.go) as
// what a pin does there: types into it (typed), is the step's own click
// (the last click of a click or submit step), or clicks it before. An
// element not on the page, or a page that cannot be looked at (no Look),
// is left to the executor, which misses it or runs it as it always did.
func (e *Executor) pinFits(ctx context.Context, st replay.Step, sel selector.Selector, typed, last bool) (why, err error) {
	if e.o.Look == nil {
		return nil, nil
	}
	scr, err := e.o.Look(ctx, st)
	if err != nil {
		return nil, fmt.Errorf("step %d: read the page for its pinned steps: %w", st.Index+1, err)
	}
	i, err := selector.Match(sel, scr.Tree)
	if err != nil {
		return nil, nil
	}
	switch {
	case typed:
		fst := st
		fst.Action = "fill"
		return fitStep(fst, newMasker(st.Values), scr, i), nil
	case last && (st.Action == "click" || st.Action == "submit"):
		return fitStep(st, newMasker(st.Values), scr, i), nil
	}
	return fitClick(st, scr, i), nil
}

// pinUnfit is the outcome of a pin whose element does not fit the step:
// it misses (a model may take over when it is the first pin, as for one
// not found), with a note for the report and a warning in the log.
func (e *Executor) pinUnfit(ctx context.Context, st replay.Step, name string, why error, i int) replay.Outcome {
	e.o.Logger.WarnContext(ctx, "pinned step not run", "step", st.Index+1, "pin", name, "reason", why)
	out := pinMiss(st, name, "its element does not fit the step: "+why.Error())
	out.Missed = i == 0
	out.Notes = append(out.Notes, fmt.Sprintf("step %d (%s): %s does not fit the step (%v): not run", st.Index+1, st.Action, name, why))
	return out
}

func pinMiss(st replay.Step, name, why string) replay.Outcome {
	return replay.Outcome{Missed: true, Watched: st.Destructive, Selector: -1,
		Error: st.Mask(fmt.Sprintf("step %d (%s): %s: %s", st.Index+1, st.Action, name, why))}
}

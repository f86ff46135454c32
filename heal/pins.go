package heal

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/reprise-dev/reprise/replay"
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

func pinMiss(st replay.Step, name, why string) replay.Outcome {
	return replay.Outcome{Missed: true, Watched: st.Destructive, Selector: -1,
		Error: st.Mask(fmt.Sprintf("step %d (%s): %s: %s", st.Index+1, st.Action, name, why))}
}

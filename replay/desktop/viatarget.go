package desktop

import (
	"context"
	"errors"
	"time"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
)

// viaTarget acts on the element the step's target names (the selector
// model, resolved in the window's element list), when the tree can list a
// window. done is false when there is no target or no Lister, or when the
// target names no one element before FindTimeout, or that element will not
// take the action: the recorded strategies go next, and Tried says what
// the target matched.
func (e *Executor) viaTarget(ctx context.Context, st replay.Step) (replay.Outcome, bool, error) {
	l, ok := e.o.AX.(ax.Lister)
	if st.Target == nil || !ok {
		return replay.Outcome{Selector: -1}, false, nil
	}
	var (
		nodes []ax.Node
		i     int
		err   error
	)
	// A window still opening may list nothing, or two forms for a moment:
	// the target is looked for until it names one element, as Find's are.
	for deadline := time.Now().Add(e.o.FindTimeout); ; {
		nodes, _, i, err = Resolve(ctx, l, st.Floor.ActiveWindow, *st.Target)
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		// The miss's code only: its text may quote the row's values.
		matches, code := 0, "error"
		var m *selector.Miss
		if errors.As(err, &m) {
			matches, code = len(m.Matches), m.Code
		}
		e.o.Logger.Debug("the target names no one element", "step", st.Index+1, "code", code, "matches", matches)
		if code != selector.CodeAmbiguous {
			matches = 0
		}
		return replay.Outcome{Selector: -1, Tried: []replay.Attempt{{Strategy: "target", Matches: matches}}}, false, nil
	}
	return e.act(ctx, st, nodes[i].Element, []replay.Attempt{{Strategy: "target", Matches: 1}})
}

package desktop

import (
	"context"
	"errors"
	"github.com/reprise-dev/reprise/platform/marks"
	"time"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
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
	e.showMark(st, marks.Around(nodes[i].Bounds, e.markLabel(st), e.o.MarkSkill))
	out, done, err := e.act(ctx, st, nodes[i].Element, []replay.Attempt{{Strategy: "target", Matches: 1}})
	if out.Via == replay.ViaAX {
		out.Via = replay.ViaTarget
	}
	return out, done, err
}

// Look reads the elements of st's recorded window (the active one when it
// names none), for a model to find the step's element in.
func (e *Executor) Look(ctx context.Context, st replay.Step) (title string, tree selector.Tree, err error) {
	l, ok := e.o.AX.(ax.Lister)
	if !ok {
		return "", nil, errors.New("this accessibility tree cannot list a window")
	}
	nodes, err := l.List(ctx, st.Floor.ActiveWindow, maxNodes)
	if err != nil || len(nodes) == 0 {
		return "", nil, err
	}
	return nodes[0].Window, TreeOf(nodes), nil
}

// reader reads what a check of st looks at: the step's recorded window, or
// the active one, through the tree's listing.
func (e *Executor) reader(st replay.Step) replay.Reader {
	return func(ctx context.Context) (string, selector.Tree, error) {
		l, ok := e.o.AX.(ax.Lister)
		if !ok {
			return "", nil, errors.New("this accessibility tree cannot list a window")
		}
		window := st.Floor.ActiveWindow
		if st.Action == skills.ActionExpect && st.Expect != nil && st.Expect.Window != "" || st.When != nil && st.When.Window != "" {
			window = "" // a window check asks what is in front
		}
		nodes, err := l.List(ctx, window, maxNodes)
		if err != nil || len(nodes) == 0 {
			return "", nil, err
		}
		return nodes[0].Window, TreeOf(nodes), nil
	}
}

// expect runs an expect step: its check must hold within its time.
func (e *Executor) expect(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	wait := st.Expect.Wait(e.o.FindTimeout)
	held, seen, err := replay.Poll(ctx, *st.Expect, wait, e.reader(st))
	if err != nil {
		return replay.Outcome{}, err
	}
	if !held {
		out := failed("step %d (expect): %s not seen within %s: %s", st.Index+1, st.Expect, wait, seen)
		out.Error = st.Mask(out.Error)
		return out, nil
	}
	return replay.Outcome{OK: true, Selector: -1}, nil
}

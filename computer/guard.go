package computer

import (
	"context"
	"strings"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

// Allow authorizes in under grant id right before the input is sent: the
// window it lands in is found on a fresh listing (by title, else the front
// window under the point, else the focused one), refused as any target
// would be, bound (a desktop grant rebinds, a window grant refuses another
// window), and the action spends the budget and is audited. No basis is
// checked: the executor's own look (the screen still as recorded) guards
// the layout, and a window still settling must not fail the row.
func (b *Broker) Allow(ctx context.Context, id string, in api.Intent) error {
	if in.Kind == "" {
		return refuse(ops.CodeComputerInvalidRequest, "an intent needs a kind")
	}
	ts, err := b.Targets(ctx)
	if err != nil {
		return err
	}
	act := Action{Kind: in.Kind, TextLen: in.TextLen, Role: in.Role, Element: !in.Keyboard, Keyboard: in.Keyboard}
	t, err := landing(ts, in)
	if err == nil && t.Refused != "" {
		err = refuse(t.Refused, "window %s (%s) is refused: %s", t.ID, t.App, t.Reason)
	}
	if err != nil {
		b.auditRefusal(ctx, id, act, err)
		return err
	}
	g, ok := b.Describe()
	if !ok || g.ID != id {
		_, err := b.Done(id) // the precise refusal: expired, stopped, none
		if err == nil {
			err = refuse(ops.CodeComputerNoGrant, "grant %s is not active", id)
		}
		return err
	}
	if g.Target.ID != t.ID {
		if _, err := b.Rebind(ctx, id, t.ID); err != nil {
			return err
		}
	}
	// The window was found on a fresh listing a moment ago, under the
	// point when there is one: the action is the window's, not a basis's
	// (the executor looked at the screen itself).
	_, err = b.Authorize(ctx, id, act)
	return err
}

// auditRefusal records an action refused before it reached Authorize.
func (b *Broker) auditRefusal(ctx context.Context, id string, act Action, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.active != nil && b.active.ID == id {
		b.record(ctx, "computer.action", b.active.Grant, actFields(act, codeOf(err)))
	}
}

// landing is the window in lands in: the one its step names (by title,
// exactly, else containing it), else the front one under its point, else
// the focused one, where keys and a resolved element's action go.
func landing(ts []api.Target, in api.Intent) (api.Target, error) {
	if in.Window != "" {
		for _, match := range []func(string) bool{
			func(t string) bool { return t == in.Window },
			func(t string) bool { return strings.Contains(t, in.Window) },
		} {
			for _, t := range ts {
				if match(t.Title) {
					return t, nil
				}
			}
		}
	}
	if in.Point != nil {
		for _, t := range ts {
			if in.Point.In(t.Bounds) {
				return t, nil
			}
		}
	}
	for _, t := range ts {
		if t.Focused {
			return t, nil
		}
	}
	return api.Target{}, refuse(ops.CodeComputerNoTarget, "no window would take the input")
}

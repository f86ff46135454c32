package computer

import (
	"context"
	"fmt"
	"image"
	"strconv"

	"github.com/reprise-dev/reprise/ops"
)

// Action is one input a caller asks for, addressed by an element uid or
// by a point in the window with the basis it was measured on.
type Action struct {
	Kind string // click, double_click, right_click, set_value, press_keys, scroll, select, type
	// UID is an element uid the grant issued (Broker.UIDs) at its current
	// revision.
	UID string
	// Point is window-relative, with Basis what it was measured on.
	Point *image.Point
	Basis *Basis
	// Keyboard addresses the keys to whatever has the focus in the bound
	// window (typing, a chord, the clipboard): refused unless that window
	// has the keyboard focus right before the input.
	Keyboard bool
	// Element addresses an accessibility action on an element of the bound
	// window that the caller's own tree resolved (the replay executor's
	// selector model): the window's refusals, the budget and the audit
	// apply; no geometry is involved.
	Element bool
	// Revision is the grant revision the caller last saw; 0 when it gave
	// none. Either way a revision that moved under the caller refuses.
	Revision uint64
	// TextLen is how long the typed text is: audited by length only.
	TextLen int
	// Role is the element's role, for the audit.
	Role string
	// Secure says the element is a password field (by its role, as the
	// accessibility tree tells it): refused wherever the focus is.
	Secure bool
}

// Measure re-reads the bound window and returns the basis coordinates
// are to be given with: for a screenshot, taken right after.
func (b *Broker) Measure(ctx context.Context, grantID string, pixels bool) (Basis, Window, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	g, err := b.current(grantID)
	if err != nil {
		return Basis{}, Window{}, err
	}
	if pixels && g.Capture != CapturePixels {
		return Basis{}, Window{}, refuse(ops.CodeComputerCaptureNotGranted, "grant %s is %s: no screenshot", g.ID, g.Capture)
	}
	w, err := b.remeasure(ctx, g)
	if err != nil {
		return Basis{}, Window{}, err
	}
	return Basis{Revision: g.Revision, Bounds: w.Bounds}, w, nil
}

// Authorize checks act against the grant right before the input is sent:
// the bound window measured again, every refusal run again, the revision,
// the basis, the bounds, the budget. It spends one action of the budget
// and returns the window as it is now; the caller sends the input at once.
func (b *Broker) Authorize(ctx context.Context, grantID string, act Action) (Window, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	g, err := b.current(grantID)
	if err != nil {
		return Window{}, err
	}
	w, err := b.check(ctx, g, act)
	if err != nil {
		b.record(ctx, "computer.action", g.Grant, actFields(act, codeOf(err)))
		return Window{}, err
	}
	g.Budget--
	g.last = b.now()
	b.record(ctx, "computer.action", g.Grant, actFields(act, "ok"))
	if g.Budget == 0 {
		b.closeLocked(ctx, "computer.grant.budget_spent", "")
	}
	return w, nil
}

func (b *Broker) check(ctx context.Context, g *grant, act Action) (Window, error) {
	if act.Kind == "" {
		return Window{}, refuse(ops.CodeComputerInvalidRequest, "an action needs a kind")
	}
	if n := btoi(act.UID != "") + btoi(act.Point != nil) + btoi(act.Keyboard) + btoi(act.Element); n != 1 {
		return Window{}, refuse(ops.CodeComputerInvalidRequest, "an action is addressed by an element uid, by a point with its basis, to the keyboard focus, or to an element the caller resolved: one of them")
	}
	if act.Secure {
		return Window{}, refuse(ops.CodeComputerSecureInputRefused, "the element is a password field: reprise never acts on one")
	}
	before := g.Revision
	w, err := b.remeasure(ctx, g)
	if err != nil {
		return Window{}, err
	}
	if act.Revision != 0 && act.Revision != g.Revision {
		return Window{}, refuse(ops.CodeComputerStaleRevision, "grant %s is at revision %d: the window changed since the caller looked; look again", g.ID, g.Revision)
	}
	if act.Element {
		return w, nil
	}
	if act.Keyboard {
		if !w.Focused {
			return Window{}, refuse(ops.CodeComputerTargetNotFocused, "window %s (%s) does not have the keyboard focus: keys would go to another window", w.ID, w.App)
		}
		return w, nil
	}
	if g.Revision != before {
		return Window{}, refuse(ops.CodeComputerStaleRevision, "grant %s is at revision %d: the window changed since the caller looked; look again", g.ID, g.Revision)
	}
	if act.UID != "" {
		rev, ok := uidRevision(g.ID, act.UID)
		if !ok {
			return Window{}, refuse(ops.CodeComputerElementNotFound, "uid %s was not issued by grant %s", act.UID, g.ID)
		}
		if rev != g.Revision {
			return Window{}, refuse(ops.CodeComputerStaleRevision, "uid %s belongs to revision %d; the grant is at %d: look again", act.UID, rev, g.Revision)
		}
		return w, nil
	}
	if act.Basis == nil {
		return Window{}, refuse(ops.CodeComputerStaleBasis, "coordinates need the basis of the screenshot they were read from: no screenshot, no click")
	}
	if act.Basis.Revision != g.Revision || act.Basis.Bounds != w.Bounds {
		return Window{}, refuse(ops.CodeComputerStaleBasis, "the window moved, resized or changed since the screenshot (basis revision %d, %v; now %d, %v): take another", act.Basis.Revision, act.Basis.Bounds, g.Revision, w.Bounds)
	}
	if p := *act.Point; p.X < 0 || p.Y < 0 || p.X >= w.Bounds.Dx() || p.Y >= w.Bounds.Dy() {
		return Window{}, refuse(ops.CodeComputerOutOfBounds, "point (%d, %d) is outside the window's %dx%d: nothing was clicked", p.X, p.Y, w.Bounds.Dx(), w.Bounds.Dy())
	}
	return w, nil
}

// remeasure reads the bound window again and runs the refusals on it. A
// window that moved, resized or changed hands advances the revision. A
// window that closed: a desktop grant falls back to the front window it
// may operate (a new revision, so what was in flight is refused); a
// window grant is revoked.
func (b *Broker) remeasure(ctx context.Context, g *grant) (Window, error) {
	ts, err := b.Targets(ctx)
	if err != nil {
		return Window{}, fmt.Errorf("list windows: %w", err)
	}
	for _, t := range ts {
		if t.ID != g.Target.ID {
			continue
		}
		if t.Refused != "" {
			return Window{}, refuse(t.Refused, "window %s (%s) is refused now: %s", t.ID, t.App, t.Reason)
		}
		if t.Identity != g.Target.Identity && g.follows {
			g.Target, g.Revision = t.Window, g.Revision+1
			b.record(ctx, "computer.grant.rebound", g.Grant, map[string]string{"why": "changed_hands"})
			return t.Window, nil
		}
		if t.Identity != g.Target.Identity {
			// The OS gave the id to another application's window: what
			// the person granted is gone, whatever the new window is.
			b.closeLocked(ctx, "computer.grant.target_closed", "changed_hands")
			return Window{}, refuse(ops.CodeComputerGrantRevoked, "window %s changed hands (now %s): its grant %s is revoked; grant again", t.ID, t.App, g.ID)
		}
		if t.PID != g.Target.PID || t.App != g.Target.App || t.Bounds != g.Target.Bounds {
			g.Revision++
		}
		g.Target = t.Window
		return t.Window, nil
	}
	if g.Scope == ScopeWindow {
		b.closeLocked(ctx, "computer.grant.target_closed", "")
		return Window{}, refuse(ops.CodeComputerGrantRevoked, "window %s closed: its grant %s is revoked", g.Target.ID, g.ID)
	}
	for _, t := range ts {
		if t.Refused == "" {
			g.Target, g.Revision = t.Window, g.Revision+1
			b.record(ctx, "computer.grant.rebound", g.Grant, map[string]string{"why": "target_closed"})
			return t.Window, nil
		}
	}
	if g.Target.ID == "" {
		// An unbound grant waits for a window; it was never bound to one
		// that closed.
		return Window{}, refuse(ops.CodeComputerNoTarget, "no window reprise may operate is open")
	}
	b.closeLocked(ctx, "computer.grant.target_closed", "")
	return Window{}, refuse(ops.CodeComputerNoTarget, "window %s closed and no other window reprise may operate is open: grant %s is revoked", g.Target.ID, g.ID)
}

// UIDs issues n element uids for the grant's current revision: opaque,
// valid for this grant and revision only.
func (b *Broker) UIDs(grantID string, n int) ([]string, uint64, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	g, err := b.current(grantID)
	if err != nil {
		return nil, 0, err
	}
	out := make([]string, n)
	for i := range out {
		out[i] = uidFor(g.ID, g.Revision, i)
	}
	return out, g.Revision, nil
}

// A uid is "<revision>.<index>.<check>": the check binds it to its grant,
// so another grant's uid, or one made up, is refused.
func uidFor(grantID string, rev uint64, i int) string {
	body := strconv.FormatUint(rev, 10) + "." + strconv.Itoa(i)
	return body + "." + uidCheck(grantID, body)
}

func uidRevision(grantID, uid string) (uint64, bool) {
	var rev uint64
	var i int
	var check string
	if _, err := fmt.Sscanf(uid, "%d.%d.%s", &rev, &i, &check); err != nil {
		return 0, false
	}
	body := strconv.FormatUint(rev, 10) + "." + strconv.Itoa(i)
	return rev, uid == body+"."+uidCheck(grantID, body)
}

// uidCheck is a short digest of the grant id and the uid's body: the grant
// id is random, so nothing outside the grant can make one that passes.
func uidCheck(grantID, body string) string {
	var h uint64 = 14695981039346656037
	for _, c := range []byte(grantID + "|" + body) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return strconv.FormatUint(h&0xffffffff, 36)
}

// actFields are an action's audit fields: no text, no pixels.
func actFields(a Action, result string) map[string]string {
	f := map[string]string{"action": a.Kind, "result": result}
	if a.UID != "" {
		f["uid"] = a.UID
	}
	if a.Role != "" {
		f["role"] = a.Role
	}
	if a.TextLen > 0 {
		f["text_length"] = strconv.Itoa(a.TextLen)
	}
	return f
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

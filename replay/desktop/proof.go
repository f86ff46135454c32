package desktop

import (
	"context"
	"fmt"
	"image"
	"regexp"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// pointer is a tree that names the element at a screen point: AT-SPI's
// GetAccessibleAtPoint walked down from the window under the point, with
// the label read as recording reads it (atspi.Enricher.At). nil and no
// error when no window in the tree covers the point.
type pointer interface {
	At(ctx context.Context, x, y int) (*events.Enrichment, error)
}

// proof is what the tree says is at a recorded point, before input goes
// there.
type proof struct {
	// noTree says there is nothing to prove with: no tree, no window in
	// it under the point (an app without accessibility), or a step that
	// recorded neither role nor name.
	noTree bool
	why    string // what was found instead, for the error
	ok     bool   // the element there is the step's
}

// want is the step's element as recorded: its role and accessible name,
// from the step or its target.
func want(st replay.Step) (role, name string) {
	role, name = st.Role, st.Label
	if st.Target != nil {
		if role == "" {
			role = st.Target.Role
		}
		if name == "" {
			name = st.Target.Name
		}
	}
	return role, name
}

// proveAt asks the tree which element is at pt and whether it is st's:
// the same role and the same accessible name. A name the app gives no
// element, or an error reading the tree until FindTimeout, is no proof.
func (e *Executor) proveAt(ctx context.Context, st replay.Step, pt image.Point) proof {
	role, name := want(st)
	if role == "" && name == "" {
		return proof{noTree: true, why: "the step recorded no role or name to prove"}
	}
	var (
		gotRole, gotName string
		found            bool
		err              error
	)
	switch t := e.o.AX.(type) {
	case pointer:
		for deadline := time.Now().Add(e.o.FindTimeout); ; {
			var en *events.Enrichment
			if en, err = t.At(ctx, pt.X, pt.Y); err == nil {
				if found = en != nil; found {
					gotRole, gotName = en.Role, en.Label
				}
				break
			}
			if time.Now().After(deadline) || ctx.Err() != nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	case ax.Lister:
		var nodes []ax.Node
		if nodes, err = t.List(ctx, st.Floor.ActiveWindow, maxNodes); err == nil {
			if i := deepestAt(nodes, pt); i >= 0 {
				found, gotRole, gotName = true, nodes[i].Role, nodes[i].Name
			}
		}
	default:
		return proof{noTree: true, why: "no accessibility tree to check the element at the point"}
	}
	if err != nil {
		return proof{why: fmt.Sprintf("the accessibility tree could not say what is there: %v", err)}
	}
	if !found {
		return proof{noTree: true, why: "no window in the accessibility tree is at the point"}
	}
	if sameRole(role, gotRole) && sameName(name, gotName) {
		return proof{ok: true}
	}
	return proof{why: fmt.Sprintf("at the point is %s %q", cmpOr(gotRole, "an element with no role"), gotName)}
}

// deepestAt is the index of the smallest element whose bounds hold pt,
// the later one (deeper in tree order) of two alike; -1 when none does.
func deepestAt(nodes []ax.Node, pt image.Point) int {
	best, area := -1, 0
	for i, n := range nodes {
		if !pt.In(n.Bounds) {
			continue
		}
		if a := n.Bounds.Dx() * n.Bounds.Dy(); best < 0 || a <= area {
			best, area = i, a
		}
	}
	return best
}

// sameRole compares roles in the selector's vocabulary, which the
// recording's roles and a target's both map onto; an unknown role only
// matches itself.
func sameRole(want, got string) bool {
	if want == "" {
		return true
	}
	w, g := selector.RoleOf(want), selector.RoleOf(got)
	if w == "other" || g == "other" {
		return strings.EqualFold(strings.TrimSpace(want), strings.TrimSpace(got))
	}
	return w == g
}

// sameName compares accessible names as labels are compared (case,
// accents, spacing and a trailing colon aside); "*" in a target's name
// matches any run of characters.
func sameName(want, got string) bool {
	if want == "" {
		return true
	}
	if !strings.Contains(want, "*") {
		return skills.Loose(want) == skills.Loose(got)
	}
	parts := strings.Split(strings.TrimSpace(want), "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("(?i)^" + strings.Join(parts, ".*") + "$").MatchString(strings.TrimSpace(got))
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// unproven is the note a step acted on at a point carries when the tree
// could not prove the element there.
const unproven = "unproven: acted at the recorded point without the accessibility tree proving the element there"

// checkPoint decides whether input may go to pt for st: nil to go on
// (with a note when unproven), else the outcome, nothing sent.
func (e *Executor) checkPoint(ctx context.Context, st replay.Step, pt image.Point, tried []replay.Attempt) (note string, stop *replay.Outcome) {
	p := e.proveAt(ctx, st, pt)
	role, name := want(st)
	what := fmt.Sprintf("step %d (%s %s %q)", st.Index+1, st.Action, cmpOr(role, "element"), name)
	switch {
	case p.ok:
		return "", nil
	case p.noTree && !st.Destructive:
		e.o.Logger.InfoContext(ctx, "acting at the recorded point unproven", "step", st.Index+1, "why", p.why)
		return unproven + " (" + p.why + ")", nil
	case p.noTree:
		// Never filed by position alone: a refusal, nothing sent.
		out := failed("%s files, and is never clicked by position alone: %s at (%d, %d); nothing was sent", what, p.why, pt.X, pt.Y)
		out.Error, out.Watched, out.Tried = st.Mask(out.Error), true, tried
		return "", &out
	}
	out := missed(st, "%s: expected %s %q at the recorded point (%d, %d), but %s; nothing was sent", what, cmpOr(role, "an element"), name, pt.X, pt.Y, p.why)
	out.Error, out.Watched, out.Tried = st.Mask(out.Error), true, tried
	return "", &out
}

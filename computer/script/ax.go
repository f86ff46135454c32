package script

import (
	"fmt"
	"image"
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/platform/ax"
)

// snapshot is one reading of a window's accessibility tree. Each advances
// the generation: refs of the current and the previous one stay valid,
// older ones throw StaleRef.
type snapshot struct {
	gen      int
	target   string
	revision uint64 // the grant revision its uids belong to
	nodes    []ax.Node
	refs     []string
	uids     []string
}

type refEntry struct {
	snap  *snapshot
	index int
}

// refs are the AX refs a runtime issued. Ref names count up across
// snapshots ("e1", "e2", ...), so a name alone tells an old ref.
type refs struct {
	next  int
	gen   int
	byRef map[string]refEntry
	snaps []*snapshot
}

func newRefs() refs { return refs{byRef: map[string]refEntry{}} }

func (rs *refs) add(s *snapshot) {
	rs.gen++
	s.gen = rs.gen
	s.refs = make([]string, len(s.nodes))
	for i := range s.nodes {
		rs.next++
		s.refs[i] = "e" + strconv.Itoa(rs.next)
		rs.byRef[s.refs[i]] = refEntry{s, i}
	}
	rs.snaps = append(rs.snaps, s)
	for len(rs.snaps) > 2 {
		for _, ref := range rs.snaps[0].refs {
			delete(rs.byRef, ref)
		}
		rs.snaps = rs.snaps[1:]
	}
}

// axOpts are win.ax()'s and win.find()'s options.
type axOpts struct {
	All      bool   `json:"all"`
	MaxDepth int    `json:"maxDepth"`
	Role     string `json:"role"`
	Title    string `json:"title"`
	Value    string `json:"value"`
	Limit    int    `json:"limit"`
}

// maxNodes bounds one snapshot.
const maxNodes = 2000

// snapshot reads target's tree through the grant: bound, measured (every
// refusal runs again, secure input included), listed.
func (r *Runtime) snapshot(target string) *snapshot {
	r.bind(target)
	if r.plat.Tree == nil {
		r.throw(fail(AxUnsupported, "no accessibility tree on this OS"))
	}
	basis, w, err := r.broker.Measure(r.run.ctx, r.grantID, false)
	r.must(err)
	all, err := r.plat.Tree.List(r.run.ctx, w.Title, maxNodes)
	if err != nil {
		r.throw(fail(AxFailed, "read the tree of %s: %v", w.ID, err))
	}
	// List matches titles by substring: keep the bound window's nodes.
	keep := map[int]int{}
	var nodes []ax.Node
	for i, n := range all {
		if n.Window != w.Title {
			continue
		}
		keep[i] = len(nodes)
		if p, ok := keep[n.Parent]; ok {
			n.Parent = p
		} else {
			n.Parent = -1
		}
		if l, ok := keep[n.Label]; ok {
			n.Label = l
		} else {
			n.Label = -1
		}
		nodes = append(nodes, n)
	}
	uids, rev, err := r.broker.UIDs(r.grantID, len(nodes))
	r.must(err)
	if rev != basis.Revision {
		r.throw(fail(StaleRef, "the window changed while its tree was read: read it again"))
	}
	s := &snapshot{target: w.ID, revision: rev, nodes: nodes, uids: uids}
	r.ax.add(s)
	return s
}

func depth(nodes []ax.Node, i int) int {
	d := 0
	for p := nodes[i].Parent; p >= 0 && d < len(nodes); p = nodes[p].Parent {
		d++
	}
	return d
}

// layout roles carry no meaning of their own when unnamed.
var layout = map[string]bool{"panel": true, "filler": true, "unknown": true, "section": true, "": true}

// axText is win.ax(): the tree as indented text with [ref=eN].
func (r *Runtime) axText(target string, v goja.Value) goja.Value {
	var o axOpts
	r.options(v, &o)
	s := r.snapshot(target)
	var b strings.Builder
	for i, n := range s.nodes {
		d := depth(s.nodes, i)
		if o.MaxDepth > 0 && d >= o.MaxDepth || !o.All && n.Name == "" && layout[n.Role] {
			continue
		}
		fmt.Fprintf(&b, "%s- %s", strings.Repeat("  ", d), n.Role)
		if n.Name != "" {
			fmt.Fprintf(&b, " %q", n.Name)
		}
		if n.Password {
			b.WriteString(" (password)")
		} else if n.Value != "" {
			fmt.Fprintf(&b, " value=%q", n.Value)
		}
		fmt.Fprintf(&b, " [ref=%s]\n", s.refs[i])
	}
	return r.vm.ToValue(b.String())
}

// find is win.find(): elements by role (exact), title and value
// (case-insensitive substrings).
func (r *Runtime) find(target string, v goja.Value) goja.Value {
	var o axOpts
	r.options(v, &o)
	s := r.snapshot(target)
	var out []goja.Value
	for i, n := range s.nodes {
		if o.Role != "" && !strings.EqualFold(n.Role, o.Role) ||
			!strings.Contains(strings.ToLower(n.Name), strings.ToLower(o.Title)) ||
			o.Value != "" && (n.Password || !strings.Contains(strings.ToLower(n.Value), strings.ToLower(o.Value))) {
			continue
		}
		out = append(out, r.elObject(s, i))
		if o.Limit > 0 && len(out) == o.Limit {
			break
		}
	}
	return r.vm.ToValue(out)
}

// refObject is win.ref(name): an element of a recent snapshot of target.
func (r *Runtime) refObject(target, name string) goja.Value {
	e, ok := r.ax.byRef[name]
	if !ok {
		if n, err := strconv.Atoi(strings.TrimPrefix(name, "e")); err == nil && strings.HasPrefix(name, "e") && n >= 1 && n <= r.ax.next {
			r.throw(fail(StaleRef, "ref %s is from an older snapshot: read win.ax() again", name))
		}
		r.throw(fail(AxFailed, "no ref %s", name))
	}
	if e.snap.target != target {
		r.throw(fail(InvalidTarget, "ref %s belongs to window %s", name, e.snap.target))
	}
	return r.elObject(e.snap, e.index)
}

// elementAt is desktop.elementAt(x, y), in global desktop coordinates: the
// deepest element of the granted window under the point, or null.
func (r *Runtime) elementAt(x, y int) goja.Value {
	s := r.snapshot(r.grant().Target.ID)
	p := image.Pt(x, y)
	for i := len(s.nodes) - 1; i >= 0; i-- {
		if p.In(s.nodes[i].Bounds) {
			return r.elObject(s, i)
		}
	}
	return goja.Null()
}

// focusedElement is desktop.focusedElement(): the element of the granted
// window that has the keyboard focus, or null.
func (r *Runtime) focusedElement() goja.Value {
	s := r.snapshot(r.grant().Target.ID)
	for i, n := range s.nodes {
		if n.Focused {
			return r.elObject(s, i)
		}
	}
	return goja.Null()
}

// live checks that an element's snapshot is still one of the last two
// and that its window has not changed since (the grant's revision).
func (r *Runtime) live(s *snapshot, i int) {
	if e, ok := r.ax.byRef[s.refs[i]]; !ok || e.snap != s {
		r.throw(fail(StaleRef, "ref %s is from an older snapshot: read win.ax() again", s.refs[i]))
	}
	basis, _, err := r.broker.Measure(r.run.ctx, r.grantID, false)
	r.must(err)
	if basis.Revision != s.revision || r.grant().Target.ID != s.target {
		r.throw(fail(StaleRef, "ref %s: the window changed since its snapshot: read win.ax() again", s.refs[i]))
	}
}

// elObject is an El: snapshot fields, reads and mutations.
func (r *Runtime) elObject(s *snapshot, i int) goja.Value {
	n := s.nodes[i]
	kids := 0
	for _, m := range s.nodes {
		if m.Parent == i {
			kids++
		}
	}
	b := n.Bounds
	o := r.value(map[string]any{
		"ref": s.refs[i], "role": n.Role, "nativeRole": n.Role, "title": n.Name,
		"enabled": true, "focused": n.Focused, "childCount": kids, "password": n.Password,
	}).ToObject(r.vm)
	el := func(j int) goja.Value {
		if j < 0 {
			return goja.Null()
		}
		return r.elObject(s, j)
	}
	_ = o.Set("value", func() goja.Value {
		r.live(s, i)
		if n.Password {
			r.throw(fail(PermissionDenied, "a password field's value is never read"))
		}
		text, err := r.plat.Tree.Text(r.run.ctx, n.Element)
		if err != nil {
			r.throw(fail(AxFailed, "read %s: %v", s.refs[i], err))
		}
		return r.vm.ToValue(text)
	})
	_ = o.Set("bounds", func() goja.Value { return r.value(boxView{b.Min.X, b.Min.Y, b.Dx(), b.Dy()}) })
	_ = o.Set("attributes", func() goja.Value {
		return r.value(map[string]string{"id": n.ID, "path": n.Path, "app": n.App, "window": n.Window})
	})
	_ = o.Set("actions", func() goja.Value {
		if n.Role == "textbox" {
			return r.value([]string{"setValue", "press"})
		}
		return r.value([]string{"press"})
	})
	_ = o.Set("parent", func() goja.Value { return el(n.Parent) })
	_ = o.Set("children", func() goja.Value {
		var out []goja.Value
		for j, m := range s.nodes {
			if m.Parent == i {
				out = append(out, el(j))
			}
		}
		return r.vm.ToValue(out)
	})
	act := func(kind string, textLen int, do func() error) {
		r.writable(kind + "()")
		r.live(s, i)
		if _, err := r.broker.Authorize(r.run.ctx, r.grantID, computer.Action{Kind: kind, UID: s.uids[i], Role: n.Role, TextLen: textLen, Secure: n.Password}); err != nil {
			r.throw(fromBroker(err, false))
		}
		if err := do(); err != nil {
			r.throw(fail(AxFailed, "%s %s: %v", kind, s.refs[i], err))
		}
	}
	press := func() goja.Value {
		act("click", 0, func() error { return r.plat.Tree.Press(r.run.ctx, n.Element) })
		return goja.Undefined()
	}
	_ = o.Set("press", press)
	_ = o.Set("click", press)
	_ = o.Set("setValue", func(v string) goja.Value {
		act("set_value", len([]rune(v)), func() error { return r.plat.Tree.Fill(r.run.ctx, n.Element, v) })
		return goja.Undefined()
	})
	_ = o.Set("perform", func(action string) goja.Value {
		switch strings.ToLower(action) {
		case "press", "click", "activate", "toggle":
			return press()
		}
		r.throw(fail(AxUnsupported, "action %q: this tree performs press (click, activate, toggle) only", action))
		return nil
	})
	_ = o.Set("focus", func() goja.Value {
		r.writable("focus()")
		r.throw(fail(AxUnsupported, "focus() is not available through this tree; press() the element or click it"))
		return nil
	})
	return o
}

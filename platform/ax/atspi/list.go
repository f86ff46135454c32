package atspi

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/godbus/dbus/v5"

	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Node is one element as List reads it.
type Node struct {
	// Element addresses the element for SetText, Text and DoAction; its
	// Role is the ARIA role (wider than Find's: a named panel is a
	// "group", a frame a "window") and its Label is Name.
	Element
	// Name is the accessible name, else the name of the element's
	// LABELLED_BY target. The position rule Find also uses is not applied:
	// a selector says "near" for that.
	Name string
	// ID is the AccessibleId the application set, if any.
	ID string
	// Value is a text field's text; never a password field's.
	Value string
	// LabelIndex is the index of the node's LABELLED_BY target when that
	// is listed too, else -1; Parent the index of its parent, -1 for a
	// window.
	LabelIndex, Parent int
	// Window is the title of the node's top-level window; App the process
	// image name of its application (see List).
	Window, App string
	// Password marks a secret field ("password text").
	Password bool
	// Focused says the element has the keyboard focus.
	Focused bool
}

// valueRoles are the AT-SPI roles whose text List reads as a Value.
var valueRoles = map[string]bool{"text": true, "entry": true, "spin button": true}

// List returns the showing elements of the showing top-level windows whose
// title contains window (the active one when window is ""), each window
// before its descendants, depth first; at most limit in all. It returns
// ErrNoWindow when no window matches.
//
// An element not SHOWING is left out with its subtree: VISIBLE alone is
// also true of the widgets on a notebook's hidden pages, which a person
// cannot see and a selector must not be ambiguous with (Find and At use
// SHOWING too). App is the base name of /proc/PID/exe of the
// application's process (PID from the accessibility bus), else its comm,
// else the application's accessible name.
//
// The cost is one batched round trip per tree level (each element's
// state, role, name and id, children, relations and extents sent at once),
// then one for the fields' text and one per application for its PID.
func (e *Enricher) List(ctx context.Context, window string, limit int) ([]Node, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*e.opts.Timeout)
	defer cancel()
	c, err := e.client(ctx)
	if err != nil {
		return nil, err
	}
	wins, err := c.topLevels(ctx, window)
	if err != nil {
		return nil, err
	}
	if len(wins) == 0 {
		return nil, ErrNoWindow
	}
	var out []Node
	images := map[string]string{}
	for _, w := range wins {
		if len(out) >= limit {
			break
		}
		nodes, err := c.walk(ctx, w, limit-len(out))
		if err != nil {
			return nil, err
		}
		app, ok := images[w.app.Bus]
		if !ok {
			app = c.processImage(ctx, w.app)
			images[w.app.Bus] = app
		}
		base := len(out)
		for _, n := range nodes {
			n.App = app
			if n.Parent >= 0 {
				n.Parent += base
			}
			if n.LabelIndex >= 0 {
				n.LabelIndex += base
			}
			out = append(out, n)
		}
	}
	return out, ctx.Err()
}

// topLevel is a window List walks, with what its path segment needs.
type topLevel struct {
	r, app ref
	seg    axpath.Node
}

// topLevels returns the showing top-level windows whose title contains
// window, or the active ones when window is "", reading every
// application's windows in three batched round trips.
func (c client) topLevels(ctx context.Context, window string) ([]topLevel, error) {
	apps, err := c.children(ctx, ref{registryBus, rootPath})
	if err != nil {
		return nil, fmt.Errorf("list applications: %w", err)
	}
	kids := make([][]ref, len(apps))
	reqs := make([]req, len(apps))
	for i, a := range apps {
		reqs[i] = req{r: a, method: ifaceAccessible + ".GetChildren", out: []any{&kids[i]}}
	}
	c.batch(ctx, reqs)
	var wins []topLevel
	var owners []int // the index in wins where each application's windows start
	for i, ws := range kids {
		owners = append(owners, len(wins))
		for _, w := range ws {
			wins = append(wins, topLevel{r: w, app: apps[i]})
		}
	}
	owners = append(owners, len(wins))
	props := c.read(ctx, refsOf(wins), false)
	var out []topLevel
	for a := range apps {
		sibs := props[owners[a]:owners[a+1]]
		for i := range sibs {
			w, p := wins[owners[a]+i], sibs[i]
			if !p.ok || !has(p.states, stateShowing) {
				continue
			}
			if window == "" && !has(p.states, stateActive) || window != "" && !strings.Contains(p.name, window) {
				continue
			}
			w.seg = segment(sibs, i)
			out = append(out, w)
		}
	}
	return out, ctx.Err()
}

func refsOf(ws []topLevel) []ref {
	out := make([]ref, len(ws))
	for i, w := range ws {
		out[i] = w.r
	}
	return out
}

// props is what one batched read learns of an element; ok is false when it
// did not answer (gone, or not an accessible).
type props struct {
	ok        bool
	states    uint64
	role      string
	name, id  string
	children  []ref
	relations relationSet
	box       rect
}

// read asks for the state, role, name and id of each of rs, and with deep
// also its children, relations and extents, all in one round trip.
func (c client) read(ctx context.Context, rs []ref, deep bool) []props {
	type answer struct {
		states []uint32
		role   string
		all    map[string]dbus.Variant
		kids   []ref
		rels   relationSet
		box    struct{ X, Y, W, H int32 }
	}
	per := 3
	if deep {
		per = 6
	}
	as := make([]answer, len(rs))
	reqs := make([]req, 0, per*len(rs))
	for i, r := range rs {
		a := &as[i]
		reqs = append(reqs,
			req{r: r, method: ifaceAccessible + ".GetState", out: []any{&a.states}},
			req{r: r, method: ifaceAccessible + ".GetRoleName", out: []any{&a.role}},
			req{r: r, method: "org.freedesktop.DBus.Properties.GetAll", args: []any{ifaceAccessible}, out: []any{&a.all}})
		if deep {
			reqs = append(reqs,
				req{r: r, method: ifaceAccessible + ".GetChildren", out: []any{&a.kids}},
				req{r: r, method: ifaceAccessible + ".GetRelationSet", out: []any{&a.rels}},
				req{r: r, method: ifaceComponent + ".GetExtents", args: []any{coordScreen}, out: []any{&a.box}})
		}
	}
	c.batch(ctx, reqs)
	out := make([]props, len(rs))
	for i, a := range as {
		q := reqs[per*i : per*(i+1)]
		if q[0].err != nil || q[1].err != nil || len(a.states) == 0 {
			continue
		}
		p := props{ok: true, role: a.role, states: uint64(a.states[0])}
		if len(a.states) > 1 {
			p.states |= uint64(a.states[1]) << 32
		}
		p.name, _ = a.all["Name"].Value().(string)
		p.id, _ = a.all["AccessibleId"].Value().(string) // at-spi2 2.34 and later
		if deep {
			p.children, p.relations = a.kids, a.rels
			if q[5].err == nil { // an element without a Component has no bounds
				p.box = rect{int(a.box.X), int(a.box.Y), int(a.box.W), int(a.box.H)}
			}
		}
		out[i] = p
	}
	return out
}

// segment is sibs[i]'s path segment: role, name and, when siblings share
// both, its ordinal among them, as path writes it.
func segment(sibs []props, i int) axpath.Node {
	n := axpath.Node{Role: sibs[i].role, Name: sibs[i].name}
	same, before := 0, 0
	for j, s := range sibs {
		if s.ok && s.role == n.Role && s.name == n.Name {
			same++
			if j <= i {
				before++
			}
		}
	}
	if same > 1 {
		n.Ordinal = before
	}
	return n
}

// walked is an element of a walk: what was read and where it sits.
type walked struct {
	r      ref
	props  props
	parent int // in the walk's slice
	path   string
	kids   []int
}

// walk reads w's showing subtree a level at a time (one round trip each)
// and returns it depth first, at most limit nodes, with local indices.
func (c client) walk(ctx context.Context, w topLevel, limit int) ([]Node, error) {
	all := []walked{{r: w.r, parent: -1, path: axpath.Format([]axpath.Node{w.seg})}}
	level := []int{0}
	for depth := 0; len(level) > 0 && depth < maxDepth; depth++ {
		rs := make([]ref, len(level))
		for i, k := range level {
			rs[i] = all[k].r
		}
		ps := c.read(ctx, rs, true)
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("list the window: %w", err)
		}
		var next []int
		for start := 0; start < len(level); {
			// The level holds each parent's children together, in order.
			end := start + 1
			for end < len(level) && all[level[end]].parent == all[level[start]].parent {
				end++
			}
			sibs := ps[start:end]
			for i, k := range level[start:end] {
				p := sibs[i]
				if !p.ok || !has(p.states, stateShowing) {
					continue
				}
				n := &all[k]
				n.props = p
				if n.parent >= 0 {
					n.path = all[n.parent].path + "/" + axpath.Format([]axpath.Node{segment(sibs, i)})
					all[n.parent].kids = append(all[n.parent].kids, k)
				}
				for _, kid := range p.children {
					if len(all) >= limit {
						break // a level cut short is the last one read
					}
					next = append(next, len(all))
					all = append(all, walked{r: kid, parent: k})
				}
			}
			start = end
		}
		level = next
	}
	if !all[0].props.ok {
		return nil, nil // the window closed under us
	}
	return c.nodes(ctx, all, w.seg.Name), nil
}

// nodes lays out a walk depth first and fills what needs the whole list:
// labels, names taken from labels, roles, and the fields' text.
func (c client) nodes(ctx context.Context, all []walked, title string) []Node {
	var out []Node
	var src []int // out[i] is all[src[i]]
	index := map[ref]int{}
	var visit func(k, parent int)
	visit = func(k, parent int) {
		w := all[k]
		index[w.r] = len(out)
		src = append(src, k)
		out = append(out, Node{
			Element: Element{Bus: w.r.Bus, Path: string(w.r.Path), AXPath: w.path,
				Bounds: image.Rect(w.props.box.X, w.props.box.Y, w.props.box.right(), w.props.box.bottom())},
			Name: w.props.name, ID: w.props.id, LabelIndex: -1, Parent: parent, Window: title,
			Password: w.props.role == rolePassword, Focused: has(w.props.states, stateFocused),
		})
		me := len(out) - 1
		for _, kid := range w.kids {
			visit(kid, me)
		}
	}
	visit(0, -1)
	var unlisted []ref // LABELLED_BY targets outside the list, named below
	var unnamed, fields []int
	for i := range out {
		targets := all[src[i]].props.relations.labelledBy()
		for _, t := range targets {
			if j, ok := index[t]; ok {
				out[i].LabelIndex = j
				break
			}
		}
		if all[src[i]].props.role == roleComboBox {
			// Its name is its current text (GTK), and stays so when the
			// app unsets it: its label names it, and its selection is its
			// value.
			out[i].Value = c.selected(ctx, all[src[i]].r)
			if len(targets) > 0 {
				out[i].Name = ""
			}
		}
		switch {
		case out[i].Name != "" || len(targets) == 0:
		case out[i].LabelIndex >= 0:
			out[i].Name = all[src[out[i].LabelIndex]].props.name
		default:
			unnamed, unlisted = append(unnamed, i), append(unlisted, targets[0])
		}
		if valueRoles[all[src[i]].props.role] {
			fields = append(fields, i)
		}
	}
	for k, name := range c.names(ctx, unlisted) {
		out[unnamed[k]].Name = name
	}
	nameByPosition(out, func(i int) string { return all[src[i]].props.role })
	texts := make([]string, len(fields))
	reqs := make([]req, len(fields))
	for k, i := range fields {
		reqs[k] = req{r: ref{out[i].Bus, dbus.ObjectPath(out[i].Path)}, method: ifaceText + ".GetText",
			args: []any{int32(0), int32(-1)}, out: []any{&texts[k]}}
	}
	c.batch(ctx, reqs)
	for k, i := range fields {
		out[i].Value = texts[k] // "" where it did not answer
	}
	for i := range out {
		out[i].Role = listRole(all[src[i]].props.role, out[i].Name)
		out[i].Label = out[i].Name
	}
	return out
}

// nameByPosition names the fields that name themselves nowhere by the
// label beside them, as labelOf does for Find: searched under the field's
// ancestors nearest first, so a label in its own group wins.
func nameByPosition(out []Node, role func(int) string) {
	last := make([]int, len(out)) // the last index of each subtree (out is depth first)
	for i := range out {
		last[i] = i
	}
	for i := len(out) - 1; i > 0; i-- {
		if p := out[i].Parent; p >= 0 && last[i] > last[p] {
			last[p] = last[i]
		}
	}
	cache := map[int][]labelBox{}
	labelsUnder := func(a int) []labelBox {
		if ls, ok := cache[a]; ok {
			return ls
		}
		var ls []labelBox
		for j := a + 1; j <= last[a]; j++ {
			if role(j) == roleLabel {
				b := out[j].Bounds
				ls = append(ls, labelBox{Name: out[j].Name, Box: rect{b.Min.X, b.Min.Y, b.Dx(), b.Dy()}})
			}
		}
		cache[a] = ls
		return ls
	}
	for i := range out {
		if out[i].Name != "" || out[i].LabelIndex >= 0 || !fieldRoles[role(i)] {
			continue
		}
		b := out[i].Bounds
		box := rect{b.Min.X, b.Min.Y, b.Dx(), b.Dy()}
		for a := out[i].Parent; a >= 0; a = out[a].Parent {
			if l := nearestLabel(box, labelsUnder(a)); l != "" {
				out[i].Name = l
				break
			}
		}
	}
}

// processImage names app's process: the base name of its executable, else
// its comm, else the application's accessible name.
func (c client) processImage(ctx context.Context, app ref) string {
	var pid uint32
	err := c.conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetConnectionUnixProcessID", 0, app.Bus).Store(&pid)
	if err == nil && pid > 0 {
		proc := "/proc/" + strconv.FormatUint(uint64(pid), 10)
		if exe, err := os.Readlink(proc + "/exe"); err == nil {
			return filepath.Base(strings.TrimSuffix(exe, " (deleted)"))
		}
		if comm, err := os.ReadFile(proc + "/comm"); err == nil {
			return strings.TrimSpace(string(comm))
		}
	}
	name, _ := c.name(ctx, app)
	return name
}

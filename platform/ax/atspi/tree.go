package atspi

import (
	"context"
	"fmt"

	"github.com/godbus/dbus/v5"

	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Walking limits: a path deeper than maxDepth or a subtree larger than
// maxLabelScan is a broken or enormous tree, and a lookup must stay cheap.
const (
	maxDepth     = 64
	maxLabelScan = 500
)

// fieldRoles are the AT-SPI roles that take input and so may be labelled by
// a neighbour; a panel or a filler without a name has no label to find.
var fieldRoles = map[string]bool{
	"text": true, "entry": true, rolePassword: true, "combo box": true,
	"spin button": true, "slider": true, "date editor": true,
}

// path returns el's nodes from win down to el, and el's ancestors nearest
// first (ending with win). When el is not under win it starts at the first
// ancestor that has no parent.
func (c client) path(ctx context.Context, el, win ref) (_ []axpath.Node, _ []ref, err error) {
	chain := []ref{el}
	for cur := el; cur != win && len(chain) < maxDepth; {
		p, err := c.parent(ctx, cur)
		if err != nil {
			return nil, nil, err
		}
		if p.null() || p == (ref{registryBus, rootPath}) {
			break
		}
		chain = append(chain, p)
		cur = p
	}
	// chain is el..win; a window's parent is its application, whose
	// children are the sibling windows.
	nodes := make([]axpath.Node, len(chain))
	for i, r := range chain {
		var p ref
		if i+1 < len(chain) {
			p = chain[i+1]
		} else if p, err = c.parent(ctx, r); err != nil {
			return nil, nil, err
		}
		n, err := c.node(ctx, r, p)
		if err != nil {
			return nil, nil, err
		}
		nodes[len(chain)-1-i] = n
	}
	return nodes, chain[1:], nil
}

// node describes r within its parent p: role, name and the ordinal among
// siblings sharing both.
func (c client) node(ctx context.Context, r, p ref) (axpath.Node, error) {
	role, err := c.roleName(ctx, r)
	if err != nil {
		return axpath.Node{}, err
	}
	name, err := c.name(ctx, r)
	if err != nil {
		return axpath.Node{}, err
	}
	n := axpath.Node{Role: role, Name: name}
	if p.null() || p == (ref{registryBus, rootPath}) {
		return n, nil
	}
	sibs, err := c.children(ctx, p)
	if err != nil {
		return axpath.Node{}, err
	}
	// Only siblings of the same role need their names read.
	var alike []ref
	for i, sr := range c.roleNames(ctx, sibs) {
		if sr == role && sibs[i] != r {
			alike = append(alike, sibs[i])
		}
	}
	same := map[ref]bool{r: true}
	for i, sn := range c.names(ctx, alike) {
		if sn == name {
			same[alike[i]] = true
		}
	}
	if len(same) > 1 {
		for _, s := range sibs {
			if same[s] {
				n.Ordinal++
			}
			if s == r {
				break
			}
		}
	}
	return n, ctx.Err()
}

// labelCache keeps the labels found under an ancestor for one operation, so
// that Find does not rescan a form for each of its fields.
type labelCache map[ref][]labelBox

// labelOf returns el's label: its name; else the name of its LABELLED_BY
// target; else, for an input field, the label placed beside it
// (nearestLabel), searched under el's ancestors nearest first, so that a
// label in the field's own group wins over one elsewhere in the window.
func (c client) labelOf(ctx context.Context, el ref, n axpath.Node, ancestors []ref, cache labelCache) (string, error) {
	// A combo box's name is its current text (GTK): what labels it names
	// it, whatever was chosen.
	if n.Name != "" && n.Role != roleComboBox {
		return n.Name, nil
	}
	if l, err := c.labelledBy(ctx, el); err != nil || l != "" {
		return l, err
	}
	if !fieldRoles[n.Role] {
		return "", nil
	}
	box, err := c.extents(ctx, el)
	if err != nil {
		return "", err
	}
	for _, a := range ancestors {
		labels, ok := cache[a]
		if !ok {
			if labels, err = c.labels(ctx, a); err != nil {
				return "", fmt.Errorf("labels near a field: %w", err)
			}
			cache[a] = labels
		}
		if l := nearestLabel(box, labels); l != "" {
			return l, nil
		}
	}
	return "", nil
}

// labels lists the showing label-role elements under root, a tree level
// at a time, looking at no more than maxLabelScan elements.
func (c client) labels(ctx context.Context, root ref) ([]labelBox, error) {
	var out []labelBox
	level := []ref{root}
	for seen := 0; len(level) > 0 && seen < maxLabelScan; seen += len(level) {
		var labels, inner []ref
		for i, role := range c.roleNames(ctx, level) {
			switch role {
			case roleLabel:
				labels = append(labels, level[i])
			case "":
				// vanished mid-walk, or no answer: nothing to look in
			default:
				inner = append(inner, level[i])
			}
		}
		out = append(out, c.labelBoxes(ctx, labels)...)
		level = c.childrenOf(ctx, inner)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// childrenOf returns the children of all of rs, in order.
func (c client) childrenOf(ctx context.Context, rs []ref) []ref {
	kids := make([][]ref, len(rs))
	reqs := make([]req, len(rs))
	for i, r := range rs {
		reqs[i] = req{r: r, method: ifaceAccessible + ".GetChildren", out: []any{&kids[i]}}
	}
	c.batch(ctx, reqs)
	var out []ref
	for _, k := range kids {
		out = append(out, k...)
	}
	return out
}

// labelBoxes reads the text and extents of the showing ones among labels.
func (c client) labelBoxes(ctx context.Context, labels []ref) []labelBox {
	type answer struct {
		states []uint32
		name   dbus.Variant
		box    struct{ X, Y, W, H int32 }
	}
	as := make([]answer, len(labels))
	reqs := make([]req, 0, 3*len(labels))
	for i, r := range labels {
		a := &as[i]
		reqs = append(reqs,
			req{r: r, method: ifaceAccessible + ".GetState", out: []any{&a.states}},
			req{r: r, method: "org.freedesktop.DBus.Properties.Get", args: []any{ifaceAccessible, "Name"}, out: []any{&a.name}},
			req{r: r, method: ifaceComponent + ".GetExtents", args: []any{coordScreen}, out: []any{&a.box}})
	}
	c.batch(ctx, reqs)
	var out []labelBox
	for i, a := range as {
		if reqs[3*i].err != nil || reqs[3*i+1].err != nil || reqs[3*i+2].err != nil {
			continue
		}
		name, _ := a.name.Value().(string)
		if name == "" || len(a.states) == 0 || !has(uint64(a.states[0]), stateShowing) {
			continue
		}
		out = append(out, labelBox{name, rect{int(a.box.X), int(a.box.Y), int(a.box.W), int(a.box.H)}})
	}
	return out
}

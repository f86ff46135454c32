package uia

import (
	"image"

	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Node is one element as List reads it. It carries what platform/ax's
// Node does (platform/ax imports this package on Windows, so the UIA tree
// there converts): the Element to act on (whose Label is the accessible
// name, or else its LabeledBy element's), the AutomationId, a field's
// value, and indices into the same listing.
type Node struct {
	Element
	// ID is the AutomationId; a Win32 control's is its control id.
	ID string
	// Value is the ValuePattern's value; never read for a password field.
	Value string
	// LabeledBy is the index of the node UIA names as this one's
	// LabeledBy, or -1; Parent the index of its parent, or -1 for the
	// window.
	LabeledBy, Parent int
	// Window is the top-level window's name, App its process image name.
	Window, App string
	// Password is UIA's IsPassword.
	Password bool
}

// raw is one element of a window's control view as the cached walk read
// it, in tree order, before the off-screen ones are dropped.
type raw struct {
	parent              int // index in the walk; -1 for the window
	ct                  int32
	password, offscreen bool
	name, id, class     string
	value               string
	hasValue            bool // a ValuePattern whose value the walk reads
	bounds              image.Rectangle
	labeledBy           int    // index in the walk, or -1
	labelName           string // the LabeledBy element's name, wherever it is
	pid                 int
}

// assemble turns a walk (raws[0] the window) into the listing: each
// element's path numbered among its siblings as At numbers it (off-screen
// siblings count, since At's walk sees them too), off-screen elements left
// out with their children moved up to the nearest shown ancestor, and at
// most limit nodes. from gives the walk index of each node.
func assemble(raws []raw, app string, limit int) (nodes []Node, from []int) {
	if len(raws) == 0 {
		return nil, nil
	}
	segs := make([]axpath.Node, len(raws))
	kids := map[int][]int{}
	for i, r := range raws {
		segs[i] = axpath.Node{Role: SegmentRole(r.ct, r.password), Name: r.name}
		if r.parent >= 0 {
			kids[r.parent] = append(kids[r.parent], i)
		}
	}
	for _, ks := range kids {
		sibs := make([]axpath.Node, len(ks))
		for j, k := range ks {
			sibs[j] = segs[k]
		}
		for j, k := range ks {
			segs[k].Ordinal = axpath.Ordinal(sibs, j)
		}
	}
	chains := make([][]axpath.Node, len(raws))
	index := make([]int, len(raws)) // walk index -> node index, or -1
	window := raws[0].name
	for i, r := range raws {
		index[i] = -1
		up := -1 // the nearest shown ancestor's node index
		if r.parent >= 0 {
			chains[i] = append(append([]axpath.Node(nil), chains[r.parent]...), segs[i])
			for p := r.parent; p >= 0 && up < 0; p = raws[p].parent {
				up = index[p]
			}
		} else {
			chains[i] = []axpath.Node{segs[i]}
		}
		// The window itself is kept even when UIA calls it off screen
		// (minimized): it is what the listing is of.
		if (r.offscreen && i > 0) || len(nodes) >= limit {
			continue
		}
		seg := segs[i].Role
		el := Element{Role: roleOf(seg, r.class), Label: r.name, AXPath: axpath.Format(chains[i]), Bounds: r.bounds, PID: r.pid}
		if el.Label == "" {
			el.Label = r.labelName
		}
		n := Node{Element: el, ID: r.id, Parent: up, LabeledBy: -1, Window: window, App: app, Password: r.password}
		if r.hasValue && !r.password {
			n.Value = r.value
		}
		index[i] = len(nodes)
		nodes = append(nodes, n)
		from = append(from, i)
	}
	for j, i := range from {
		if l := raws[i].labeledBy; l >= 0 {
			nodes[j].LabeledBy = index[l]
		}
	}
	return nodes, from
}

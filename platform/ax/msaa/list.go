package msaa

import (
	"image"
	"strings"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// StateInvisible is STATE_SYSTEM_INVISIBLE: a listing leaves the element
// out.
const StateInvisible uint32 = 0x00008000

// Handle is what a listed element is found again by: its window, and for
// a simple element (one with no window of its own, such as a list item)
// its child id in the window's client object.
type Handle struct {
	Window uintptr
	Child  int32
}

// raw is one element as the walk read it, in tree order.
type raw struct {
	parent int // index in the walk; -1 for the window
	// segs are the element's path segments below its parent's: a child
	// window is MSAA's window object and then its client object, as At
	// writes them; the first is numbered among its siblings.
	segs  []axpath.Node
	el    element
	value string
	id    string // the control id of a child window; "" for none
	box   image.Rectangle
	h     Handle
}

// assemble turns the walk (raws[0] the window) into the listing: each
// node's path, the label a field is linked to, at most limit nodes.
//
// On Win32 a field's label is the static text created just before it
// (oleacc's proxy names the field from it): a text field whose previous
// sibling is a static text of the same name is linked to it.
func assemble(raws []raw, app string, limit int) []ax.Node {
	if len(raws) == 0 {
		return nil
	}
	kids := map[int][]int{}
	for i, r := range raws {
		if r.parent >= 0 {
			kids[r.parent] = append(kids[r.parent], i)
		}
	}
	for _, ks := range kids {
		sibs := make([]axpath.Node, len(ks))
		for j, k := range ks {
			sibs[j] = raws[k].segs[0]
		}
		for j, k := range ks {
			raws[k].segs[0].Ordinal = axpath.Ordinal(sibs, j)
		}
	}
	chains := make([][]axpath.Node, 0, min(len(raws), limit))
	nodes := make([]ax.Node, 0, min(len(raws), limit))
	prev := map[int]int{} // parent -> the last child listed
	window := raws[0].el.name
	for i, r := range raws[:min(len(raws), limit)] {
		chain := r.segs
		if r.parent >= 0 {
			chain = append(append([]axpath.Node(nil), chains[r.parent]...), r.segs...)
		}
		chains = append(chains, chain)
		n := ax.Node{
			Element: ax.Element{Role: r.el.reprise(), Handle: r.h}, Name: r.el.name, ID: r.id,
			Label: -1, Parent: r.parent, Bounds: r.box, Window: window, App: app,
			Path: axpath.Format(chain), Password: r.el.role == RoleText && r.el.state&StateProtected != 0,
		}
		if !n.Password {
			n.Value = r.value
		}
		if p, ok := prev[r.parent]; ok && r.el.role == RoleText && r.el.name != "" &&
			raws[p].el.role == RoleStaticText && labelText(raws[p].el.name) == labelText(r.el.name) {
			n.Label = p
		}
		prev[r.parent] = i
		nodes = append(nodes, n)
	}
	return nodes
}

// labelText is a label as oleacc may give it on a field: without its
// mnemonic ampersand or trailing colon.
func labelText(s string) string {
	return strings.TrimSuffix(strings.TrimSpace(strings.ReplaceAll(s, "&", "")), ":")
}

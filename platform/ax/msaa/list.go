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

// HasValue reports whether elements of the role carry a value a listing
// reads (accValue): fields, lists' selections, ranges. The others' is not
// asked for, which spares a cross-process call per button or label.
func (r Role) HasValue() bool {
	switch r {
	case RoleText, RoleComboBox, RoleDropList, RoleHotkeyField, RoleIPAddress, RoleSpinButton,
		RoleSlider, RoleDial, RoleProgressBar, RoleCell, RoleLink, RoleDocument, RoleClient:
		return true
	}
	return false
}

// Button styles (BS_* in winuser.h) ClassRole reads.
const (
	bsTypeMask       = 0x0F
	bsCheckBox       = 0x02
	bsAutoCheckBox   = 0x03
	bsRadioButton    = 0x04
	bs3State         = 0x05
	bsAuto3State     = 0x06
	bsGroupBox       = 0x07
	bsAutoRadio      = 0x09
	bsSplitButton    = 0x0C
	bsDefSplitButton = 0x0D
)

// ClassRole is the role Windows' oleacc proxies give a standard control of
// a window class and style, for a tree whose client object says only
// "client" (Wine 8 has no button or static proxy); ok is false for a
// class with no standard proxy.
func ClassRole(class string, style uint32) (Role, bool) {
	switch strings.ToLower(class) {
	case "button":
		switch style & bsTypeMask {
		case bsCheckBox, bsAutoCheckBox, bs3State, bsAuto3State:
			return RoleCheckButton, true
		case bsRadioButton, bsAutoRadio:
			return RoleRadioButton, true
		case bsGroupBox:
			return RoleGrouping, true
		case bsSplitButton, bsDefSplitButton:
			return RoleSplitButton, true
		}
		return RolePushButton, true
	case "static":
		return RoleStaticText, true
	case "edit", "richedit20w", "richedit50w":
		return RoleText, true
	case "combobox", "comboboxex32":
		return RoleComboBox, true
	case "listbox":
		return RoleList, true
	case "scrollbar":
		return RoleScrollBar, true
	case "msctls_progress32":
		return RoleProgressBar, true
	case "msctls_trackbar32":
		return RoleSlider, true
	case "systabcontrol32":
		return RolePageTabList, true
	case "syslistview32":
		return RoleList, true
	case "systreeview32":
		return RoleOutline, true
	}
	return 0, false
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

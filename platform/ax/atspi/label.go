package atspi

import (
	"strings"
)

// AT-SPI role names (atspi_role_get_name) that need care: the first marks a
// secret field, the second is what position-matched labels carry.
const (
	rolePassword = "password text"
	roleLabel    = "label"
)

// roles maps AT-SPI role names to reprise's, which follow ARIA so that a
// desktop step and a browser step describe a text box the same way.
var roles = map[string]string{
	"push button":   "button",
	"toggle button": "button",
	"text":          "textbox",
	"entry":         "textbox",
	rolePassword:    "textbox",
	"check box":     "checkbox",
	"radio button":  "radio",
	"combo box":     "combobox",
	"menu item":     "menuitem",
	"list box":      "listbox",
	"list item":     "listitem",
	"link":          "link",
}

// Role returns reprise's role for an AT-SPI role name: the mapped name for
// the common controls, else the AT-SPI name lower-cased.
func Role(atspiRole string) string {
	if r, ok := roles[strings.ToLower(atspiRole)]; ok {
		return r
	}
	return strings.ToLower(atspiRole)
}

// listRoles maps more AT-SPI role names onto ARIA for List, whose nodes a
// selector matches. Role keeps its narrower table for recorded steps: a
// step recorded with "page tab" or "frame" must still be found by Find.
var listRoles = map[string]string{
	"frame": "window", "window": "window", "dialog": "dialog", "file chooser": "dialog",
	"alert":    "alertdialog",
	"page tab": "tab", "page tab list": "tablist",
	"list": "list", "list box": "listbox", "list item": "listitem",
	"table": "table", "tree": "tree", "tree table": "treegrid", "tree item": "treeitem",
	"table row": "row", "table cell": "cell",
	"column header": "columnheader", "table column header": "columnheader",
	"row header": "rowheader", "table row header": "rowheader",
	"check menu item": "menuitemcheckbox", "radio menu item": "menuitemradio",
	"spin button": "spinbutton", "switch": "switch",
	"heading": "heading", "paragraph": "paragraph", "static": "statictext",
	"tool bar": "toolbar", "grouping": "group", "form": "form",
}

// namedGroups are AT-SPI's generic containers: one with a name is a group
// a person can point at (GTK 3 gives a GtkFrame role "panel" and the
// frame's label as its name), one without is layout.
var namedGroups = map[string]bool{"panel": true, "filler": true}

// listRole is the ARIA role List gives an element of AT-SPI role atspiRole
// called name: Role's, widened by listRoles and namedGroups.
func listRole(atspiRole, name string) string {
	r := strings.ToLower(atspiRole)
	if namedGroups[r] {
		if name != "" {
			return "group"
		}
		return r
	}
	if aria, ok := listRoles[r]; ok {
		return aria
	}
	return Role(r)
}

// rect is an element's extents in screen coordinates.
type rect struct{ X, Y, W, H int }

func (r rect) contains(x, y int) bool {
	return r.W > 0 && r.H > 0 && x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H
}

func (r rect) right() int  { return r.X + r.W }
func (r rect) bottom() int { return r.Y + r.H }

// labelBox is a candidate label: its text and where it is drawn.
type labelBox struct {
	Name string
	Box  rect
}

// Limits of the position rule, in pixels: a label further from its field
// than this is someone else's, and edges may overlap by slack (toolkits pad
// their widgets).
const (
	maxLeftGap  = 240
	maxAboveGap = 48
	slack       = 4
)

// nearestLabel is the label a sighted person would read for a field that
// names itself nowhere in the tree (zenity's form entries). The rule:
//
//  1. Same row, to the left: the label's right edge is at or left of the
//     field's left edge (within slack), its vertical centre lies within the
//     field's height, and the gap is at most maxLeftGap. The smallest gap
//     wins.
//  2. Otherwise just above: the label's bottom edge is at or above the
//     field's top edge (within slack), the two overlap horizontally, and the
//     gap is at most maxAboveGap. The smallest gap wins.
//
// Labels with empty text never match. It returns "" when nothing fits.
func nearestLabel(field rect, labels []labelBox) string {
	best, bestGap := "", maxLeftGap+1
	for _, l := range labels {
		if l.Name == "" {
			continue
		}
		cy := l.Box.Y + l.Box.H/2
		gap := field.X - l.Box.right()
		if gap >= -slack && gap < bestGap && cy >= field.Y && cy < field.bottom() {
			best, bestGap = l.Name, gap
		}
	}
	if best != "" {
		return best
	}
	bestGap = maxAboveGap + 1
	for _, l := range labels {
		if l.Name == "" {
			continue
		}
		gap := field.Y - l.Box.bottom()
		overlaps := l.Box.X < field.right() && field.X < l.Box.right()
		if gap >= -slack && gap < bestGap && overlaps {
			best, bestGap = l.Name, gap
		}
	}
	return best
}

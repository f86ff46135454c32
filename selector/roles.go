package selector

import (
	"slices"
	"strings"
)

// ariaRoles maps reprise's recorded role vocabulary, which follows ARIA on
// every OS (platform/ax maps AT-SPI, UIA, MSAA and AX roles onto it, and
// the page side reads ARIA and implicit DOM roles), onto a selector's.
var ariaRoles = map[string]string{
	"button": "button", "menubutton": "button", "togglebutton": "button",
	"textbox": "text_field", "searchbox": "text_field", "spinbutton": "text_field", "textarea": "text_field",
	"text": "text", "statictext": "text", "label": "text", "heading": "text", "paragraph": "text",
	"checkbox": "checkbox", "switch": "checkbox",
	"radio":    "radio",
	"combobox": "combo_box", "listbox": "combo_box", "select": "combo_box",
	"option": "list_item", "listitem": "list_item", "treeitem": "list_item", "row": "list_item",
	"menuitem": "menu_item", "menuitemcheckbox": "menu_item", "menuitemradio": "menu_item",
	"tab":  "tab",
	"link": "link",
	"cell": "cell", "gridcell": "cell", "columnheader": "cell", "rowheader": "cell",
	"list": "list", "grid": "list", "table": "list", "tree": "list", "treegrid": "list", "tablist": "list",
	"group": "group", "radiogroup": "group", "toolbar": "group", "form": "group", "region": "group", "tabpanel": "group",
	"window": "window", "dialog": "window", "alertdialog": "window",
}

// RoleOf is the selector role of a recorded role (ARIA, as every tree's
// role is mapped for steps); "other" for one with no counterpart.
func RoleOf(recorded string) string {
	if r, ok := ariaRoles[strings.ToLower(strings.TrimSpace(recorded))]; ok {
		return r
	}
	return "other"
}

// Named is what resolving s reads names for: the recorded roles whose
// elements s can match or look through (its role, its containers' and, for
// near, text), or all when one of them is "other", which any unknown role
// maps to. An element of another role is only structure to s.
func Named(s Selector) (roles []string, all bool) {
	want := map[string]bool{}
	for sel := &s; sel != nil; sel = sel.In {
		want[sel.Role] = true
		if sel.Near != nil {
			want["text"] = true
		}
	}
	if want["other"] {
		return nil, true
	}
	for recorded, role := range ariaRoles {
		if want[role] {
			roles = append(roles, recorded)
		}
	}
	slices.Sort(roles)
	return roles, false
}

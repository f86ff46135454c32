package atspi

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Choice kinds: what a choice control is.
const (
	ChoiceCombo = "combo" // a combo box: a closed list in a popup
	ChoiceList  = "list"  // a list box: options shown, one selected
	ChoiceCheck = "check" // a check box or toggle: checked or not
)

// AT-SPI bits and names choices need.
const (
	ifaceSelection = "org.a11y.atspi.Selection"
	stateChecked   = 4
	stateExpanded  = 10
	roleComboBox   = "combo box"
	roleMenuItem   = "menu item"
	roleListItem   = "list item"
)

// checkRoles are the AT-SPI roles whose value is their checked state;
// listRolesSel the roles of a list whose items are options (with the
// Selection interface).
var (
	checkRoles   = map[string]bool{"check box": true, "toggle button": true, "check menu item": true, "switch": true}
	listRolesSel = map[string]bool{"list box": true, "list": true, "tree": true, "tree table": true, "table": true}
	optionRoles  = map[string]bool{roleMenuItem: true, roleListItem: true, "table row": true, "tree item": true, "table cell": true, "radio menu item": true, "check menu item": true}
)

// Choice is a choice control as the tree shows it: a combo box or list box
// with its options, or a check box with its state.
type Choice struct {
	Kind string
	// Control is the combo box, list box or check box, found as Find finds
	// elements: Label is its label, never a combo's current text.
	Control Element
	// Options are the options' names in order (combo and list).
	Options []string
	// Selected is the selected option's name, "" when none.
	Selected string
	// Picked is the option under the point ChoiceAt was asked about: the
	// one a press there picks; "" when the press was on the control itself.
	Picked string
	// Checked is a check box's state.
	Checked bool
	// Expanded says a combo box's popup is open.
	Expanded bool
}

// Enrichment is the control as a step names it: kind "ax", its role,
// label and path, and the options of a combo or list.
func (ch *Choice) Enrichment() *events.Enrichment {
	path := ch.Control.AXPath
	en := &events.Enrichment{Kind: "ax", Selectors: []events.Selector{}, AXPath: &path, Role: ch.Control.Role, Label: ch.Control.Label}
	for _, o := range ch.Options {
		en.Options = append(en.Options, events.Option{Label: o})
	}
	return en
}

// ChoiceAt returns the choice control at screen point (x, y), or nil and
// no error when the element there is not a check box, a combo box or one
// of its options, or a list box or one of its items. A press on an option
// of an open combo box's popup names the combo box, with Picked set.
func (e *Enricher) ChoiceAt(ctx context.Context, x, y int) (*Choice, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	c, err := e.client(ctx)
	if err != nil {
		return nil, err
	}
	win, err := c.windowAt(ctx, x, y)
	if err != nil || win.null() {
		return nil, err
	}
	el := win
	for range 64 {
		kid, err := c.childAt(ctx, el, x, y)
		if err != nil {
			return nil, fmt.Errorf("element at (%d, %d): %w", x, y, err)
		}
		if kid.null() || kid == el {
			break
		}
		el = kid
	}
	// The element and a few of its ancestors: a list item's label, the
	// item, the list; a menu item, its menu, the combo box.
	var chain []ref
	var roles []string
	for cur := el; len(chain) < 5 && !cur.null() && cur != win; {
		rn, err := c.roleName(ctx, cur)
		if err != nil {
			return nil, err
		}
		chain, roles = append(chain, cur), append(roles, rn)
		if cur, err = c.parent(ctx, cur); err != nil {
			return nil, err
		}
	}
	for i, rn := range roles {
		switch {
		case checkRoles[rn] && i <= 1:
			return c.readChoice(ctx, chain[i], rn)
		case rn == roleComboBox:
			ch, err := c.readChoice(ctx, chain[i], rn)
			if err != nil || ch == nil {
				return ch, err
			}
			for k := range i {
				if optionRoles[roles[k]] {
					ch.Picked, err = c.optionName(ctx, chain[k])
					break
				}
			}
			return ch, err
		case listRolesSel[rn] && i > 0 && optionRoles[roles[i-1]]:
			ch, err := c.readChoice(ctx, chain[i], rn)
			if err != nil || ch == nil {
				return ch, err
			}
			ch.Picked, err = c.optionName(ctx, chain[i-1])
			return ch, err
		}
	}
	return nil, nil
}

// ReadChoice reads a choice control Find or ChoiceAt found as it is now:
// its options, the selected one, its checked state.
func (e *Enricher) ReadChoice(ctx context.Context, el Element) (*Choice, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	c, err := e.client(ctx)
	if err != nil {
		return nil, err
	}
	rn, err := c.roleName(ctx, el.ref())
	if err != nil {
		return nil, err
	}
	ch, err := c.readChoice(ctx, el.ref(), rn)
	if err == nil && ch == nil {
		err = fmt.Errorf("the %s is not a choice control", el.Role)
	}
	return ch, err
}

// ErrNoSuchOption is returned by Choose when the control has no option of
// that name.
var ErrNoSuchOption = errors.New("atspi: the control has no such option")

// Choose selects the option named option (exactly) of a combo box or list
// box: through its Selection interface, else, for a combo box, by
// expanding it and pressing the option. The caller reads the choice back.
func (e *Enricher) Choose(ctx context.Context, el Element, option string) error {
	ch, err := e.ReadChoice(ctx, el)
	if err != nil {
		return err
	}
	if ch.Kind == ChoiceCheck {
		return fmt.Errorf("choose: the %s is a check box", el.Role)
	}
	at := -1
	for i, o := range ch.Options {
		if o == option {
			if at >= 0 {
				return fmt.Errorf("choose: the %s has two options of that name: not guessing", el.Role)
			}
			at = i
		}
	}
	if at < 0 {
		return ErrNoSuchOption
	}
	cctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	c, err := e.client(cctx)
	if err != nil {
		return err
	}
	var ok bool
	err = c.call(cctx, el.ref(), ifaceSelection+".SelectChild", []any{&ok}, int32(at))
	if err == nil && ok {
		return nil
	}
	if ch.Kind != ChoiceCombo {
		return fmt.Errorf("choose: the %s did not take the selection: %v", el.Role, err)
	}
	return e.pressOption(ctx, el, at, option)
}

// pressOption opens a combo box's popup and presses its option at, once
// it shows and is proven to be the option named option.
func (e *Enricher) pressOption(ctx context.Context, el Element, at int, option string) error {
	if err := e.DoAction(ctx, el, "press"); err != nil {
		return fmt.Errorf("choose: open the %s: %w", el.Role, err)
	}
	deadline := time.Now().Add(10 * e.opts.Timeout)
	for {
		c, err := e.client(ctx)
		if err != nil {
			return err
		}
		items, err := c.options(ctx, el.ref())
		if err == nil && at < len(items) {
			st, err := c.states(ctx, items[at])
			if err == nil && has(st, stateShowing) {
				if n, err := c.optionName(ctx, items[at]); err != nil || n != option {
					return fmt.Errorf("choose: the %s's options changed while it opened: not pressing another", el.Role)
				}
				item := Element{Bus: items[at].Bus, Path: string(items[at].Path), Role: "menuitem"}
				for _, name := range []string{"click", "activate", "press"} {
					if err = e.DoAction(ctx, item, name); err == nil {
						return nil
					}
				}
				return fmt.Errorf("choose: press the option: %w", err)
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("choose: the %s's options never showed", el.Role)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// readChoice reads r of AT-SPI role rn as a choice control, nil when it is
// none.
func (c client) readChoice(ctx context.Context, r ref, rn string) (*Choice, error) {
	var kind string
	switch {
	case checkRoles[rn]:
		kind = ChoiceCheck
	case rn == roleComboBox:
		kind = ChoiceCombo
	case listRolesSel[rn]:
		kind = ChoiceList
	default:
		return nil, nil
	}
	st, err := c.states(ctx, r)
	if err != nil {
		return nil, err
	}
	el, err := c.describe(ctx, r, rn)
	if err != nil {
		return nil, err
	}
	ch := &Choice{Kind: kind, Control: el, Checked: has(st, stateChecked), Expanded: has(st, stateExpanded)}
	if kind == ChoiceCheck {
		return ch, nil
	}
	items, err := c.options(ctx, r)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		n, err := c.optionName(ctx, it)
		if err != nil {
			return nil, err
		}
		ch.Options = append(ch.Options, n)
	}
	ch.Selected = c.selected(ctx, r)
	return ch, nil
}

// selected is the name of r's selected option, "" for none or when r
// has no Selection interface.
func (c client) selected(ctx context.Context, r ref) string {
	var count int32
	if err := c.prop(ctx, r, ifaceSelection, "NSelectedChildren", &count); err != nil || count == 0 {
		return ""
	}
	var kid ref
	if err := c.call(ctx, r, ifaceSelection+".GetSelectedChild", []any{&kid}, int32(0)); err != nil || kid.null() {
		return ""
	}
	n, _ := c.optionName(ctx, kid)
	return n
}

// options are a combo box's or list's option objects, in order: a combo's
// are the items of its popup (a menu, or a list), a list's its items.
func (c client) options(ctx context.Context, r ref) ([]ref, error) {
	kids, err := c.children(ctx, r)
	if err != nil {
		return nil, err
	}
	roles := c.roleNames(ctx, kids)
	var out []ref
	for i, k := range kids {
		switch {
		case optionRoles[roles[i]]:
			out = append(out, k)
		case roles[i] == "menu" || listRolesSel[roles[i]]:
			inner, err := c.options(ctx, k)
			if err != nil {
				return nil, err
			}
			out = append(out, inner...)
		}
	}
	return out, nil
}

// optionName is an option's name: its own, else the text of the labels
// inside it (a GTK list box row names itself nowhere).
func (c client) optionName(ctx context.Context, r ref) (string, error) {
	n, err := c.name(ctx, r)
	if err != nil || n != "" {
		return n, err
	}
	var parts []string
	level := []ref{r}
	for depth := 0; depth < 3 && len(level) > 0; depth++ {
		level = c.childrenOf(ctx, level)
		for _, name := range c.names(ctx, level) {
			if name != "" {
				parts = append(parts, name)
			}
		}
		if len(parts) > 0 {
			break
		}
	}
	return strings.Join(parts, " "), ctx.Err()
}

// describe is r as Find would return it; a combo box is labelled by what
// labels it, never by its own name, which GTK sets to its current text,
// and its path leaves that name out, so that it is the same whatever was
// chosen.
func (c client) describe(ctx context.Context, r ref, rn string) (Element, error) {
	win, err := c.topOf(ctx, r)
	if err != nil {
		return Element{}, err
	}
	nodes, ancestors, err := c.path(ctx, r, win)
	if err != nil {
		return Element{}, err
	}
	last := nodes[len(nodes)-1]
	if rn == roleComboBox {
		last.Name, last.Ordinal = "", 0
		nodes[len(nodes)-1] = last
	}
	label, err := c.labelOf(ctx, r, last, ancestors, labelCache{})
	if err != nil {
		return Element{}, err
	}
	box, _ := c.extents(ctx, r)
	return Element{Bus: r.Bus, Path: string(r.Path), Role: Role(rn), Label: label, AXPath: axpath.Format(nodes),
		Bounds: image.Rect(box.X, box.Y, box.X+box.W, box.Y+box.H)}, nil
}

// topOf is r's top-level window: the ancestor whose parent is an
// application.
func (c client) topOf(ctx context.Context, r ref) (ref, error) {
	cur := r
	for range maxDepth {
		p, err := c.parent(ctx, cur)
		if err != nil {
			return ref{}, err
		}
		if p.null() || p == (ref{registryBus, rootPath}) {
			return cur, nil
		}
		if rn, err := c.roleName(ctx, p); err == nil && rn == "application" {
			return cur, nil
		}
		cur = p
	}
	return cur, nil
}

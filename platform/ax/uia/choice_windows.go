package uia

import (
	"context"
	"fmt"

	"github.com/reprise-dev/reprise/events"
)

// mGetCurrentIsSelected is IUIAutomationSelectionItemPattern's
// get_CurrentIsSelected.
const mGetCurrentIsSelected = 6

// Choice reads a combo box (its items, shown by expanding it, and its
// value), a list (its items and the selected one) or a check box (its
// toggle state).
func (c *Client) Choice(ctx context.Context, el Element) (Choice, error) {
	kind := ChoiceKind(el.Role)
	if kind == ChoiceNone {
		return Choice{}, fmt.Errorf("uia: a %s is not a choice control", el.Role)
	}
	v, err := c.do(ctx, func(ctx context.Context) (any, error) {
		o, err := c.element(el)
		if err != nil {
			return nil, err
		}
		ch := Choice{Kind: kind}
		switch kind {
		case ChoiceCheck:
			pat, err := pattern(o, TogglePattern)
			if err != nil {
				return nil, err
			}
			defer pat.release()
			st, err := getInt32(pat, mGetCurrentToggleState, "get_CurrentToggleState")
			ch.Checked = st == 1
			return ch, err
		case ChoiceCombo:
			pat, err := pattern(o, ExpandCollapsePattern)
			if err != nil {
				return nil, err
			}
			defer pat.release()
			if err := check("Expand", pat.call(mExpand)); err != nil {
				return nil, err
			}
			defer pat.call(mCollapse)
			if vp, err := pattern(o, ValuePattern); err == nil {
				ch.Selected, _ = getString(vp, mGetCurrentValue, "get_CurrentValue")
				vp.release()
			}
		}
		o.call(mAddRef) // findIn releases the root it walks from
		items, err := c.findIn(ctx, o, "listitem", "")
		if err != nil {
			return nil, err
		}
		defer c.forget(ids(items))
		for _, it := range items {
			ch.Options = append(ch.Options, it.Label)
			if kind != ChoiceList {
				continue
			}
			if pat, err := pattern(c.els[it.h.id], SelectionItemPattern); err == nil {
				if sel, err := getInt32(pat, mGetCurrentIsSelected, "get_CurrentIsSelected"); err == nil && sel != 0 {
					ch.Selected = it.Label
				}
				pat.release()
			}
		}
		return ch, nil
	}, nil)
	ch, _ := v.(Choice)
	return ch, err
}

// Choose selects the item named name of a combo box (expanded first) or a
// list, through SelectionItem.Select. The caller reads the choice back.
func (c *Client) Choose(ctx context.Context, el Element, name string) error {
	switch ChoiceKind(el.Role) {
	case ChoiceCombo:
		return c.Act(ctx, el, events.ActionSelect, name)
	case ChoiceList:
		_, err := c.do(ctx, func(ctx context.Context) (any, error) {
			o, err := c.element(el)
			if err != nil {
				return nil, err
			}
			return nil, c.selectItem(ctx, o, name)
		}, nil)
		return err
	}
	return fmt.Errorf("uia: a %s has no options to choose", el.Role)
}

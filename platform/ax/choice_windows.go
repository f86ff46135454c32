package ax

import (
	"context"

	"github.com/reprise-dev/reprise/platform/ax/uia"
)

var _ Chooser = UIA{}

// Choice reads a combo box, list or check box through UI Automation's
// patterns (ExpandCollapse and Value, SelectionItem, Toggle).
func (u UIA) Choice(ctx context.Context, el Element) (Choice, error) {
	ch, err := u.Client.Choice(ctx, el.Handle.(uia.Element))
	if err != nil {
		return Choice{}, err
	}
	return Choice{Options: ch.Options, Selected: ch.Selected, Checkable: ch.Kind == uia.ChoiceCheck, Checked: ch.Checked}, nil
}

// Choose selects an option: a combo box expanded, then SelectionItem.Select
// on the item of that name.
func (u UIA) Choose(ctx context.Context, el Element, option string) error {
	return u.Client.Choose(ctx, el.Handle.(uia.Element), option)
}

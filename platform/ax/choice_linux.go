package ax

import (
	"context"
	"errors"

	"github.com/reprise-dev/reprise/platform/ax/atspi"
)

var _ Chooser = ATSPI{}

// Choice reads a combo box, list box or check box through AT-SPI.
func (a ATSPI) Choice(ctx context.Context, el Element) (Choice, error) {
	ch, err := a.ReadChoice(ctx, el.Handle.(atspi.Element))
	if err != nil {
		return Choice{}, err
	}
	return Choice{Options: ch.Options, Selected: ch.Selected, Checkable: ch.Kind == atspi.ChoiceCheck, Checked: ch.Checked}, nil
}

// Choose selects an option through AT-SPI's Selection interface, else by
// expanding a combo box and pressing the option.
func (a ATSPI) Choose(ctx context.Context, el Element, option string) error {
	err := a.Enricher.Choose(ctx, el.Handle.(atspi.Element), option)
	if errors.Is(err, atspi.ErrNoSuchOption) {
		return ErrNoOption
	}
	return err
}

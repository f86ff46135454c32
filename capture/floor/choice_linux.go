package floor

import (
	"context"

	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
)

// choiceEnricher lets the desktop pipeline record combo boxes and list
// boxes as select steps and check boxes with their state, through AT-SPI.
type choiceEnricher struct{ *atspi.Enricher }

var _ desktop.ChoiceEnricher = choiceEnricher{}

func (c choiceEnricher) ChoiceAt(ctx context.Context, x, y int) (*desktop.Choice, error) {
	ch, err := c.Enricher.ChoiceAt(ctx, x, y)
	if err != nil || ch == nil {
		return nil, err
	}
	return choiceOf(ch), nil
}

func (c choiceEnricher) Reread(ctx context.Context, d *desktop.Choice) (*desktop.Choice, error) {
	ch, err := c.ReadChoice(ctx, d.Handle.(atspi.Element))
	if err != nil {
		return nil, err
	}
	return choiceOf(ch), nil
}

func choiceOf(ch *atspi.Choice) *desktop.Choice {
	return &desktop.Choice{Kind: ch.Kind, Control: ch.Enrichment(), Picked: ch.Picked, Selected: ch.Selected,
		Checked: ch.Checked, Bounds: ch.Control.Bounds, Handle: ch.Control}
}

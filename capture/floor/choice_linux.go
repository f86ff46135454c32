package floor

import (
	"context"
	"errors"

	"github.com/reprise-dev/reprise/capture/desktop"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// choiceEnricher lets the desktop pipeline record combo boxes and list
// boxes as select steps and check boxes with their state, through AT-SPI.
type choiceEnricher struct{ *atspi.Enricher }

var (
	_ desktop.ChoiceEnricher = choiceEnricher{}
	_ desktop.Observer       = choiceEnricher{}
	_ desktop.Snapshotter    = choiceEnricher{}
)

// textRoles are the roles whose names are texts a window shows (a status
// line, a message); fieldRoles those of its input fields.
var (
	textRoles  = map[string]bool{"label": true, "statictext": true, "heading": true, "paragraph": true, "alert": true, "status bar": true, "notification": true, "info bar": true}
	fieldRoles = map[string]bool{"textbox": true, "combobox": true, "spinbutton": true}
)

// Window reads the window titled title through AT-SPI's listing.
func (c choiceEnricher) Window(ctx context.Context, title string) (desktop.WindowState, error) {
	nodes, err := c.List(ctx, title, 2000)
	if errors.Is(err, atspi.ErrNoWindow) || err == nil && len(nodes) == 0 {
		return desktop.WindowState{Gone: true}, nil
	}
	if err != nil {
		return desktop.WindowState{}, err
	}
	var ws desktop.WindowState
	for _, n := range nodes {
		switch {
		case textRoles[n.Role] && n.Name != "":
			ws.Texts = append(ws.Texts, n.Name)
		case fieldRoles[n.Role] && !n.Password:
			ws.Fields++
			if n.Value != "" {
				ws.Filled++
			}
		}
	}
	return ws, nil
}

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

// Elements lists the window titled title as At would name each element:
// its role from its path's own segment, its name, its path. No value.
func (c choiceEnricher) Elements(ctx context.Context, title string) ([]desktop.Seen, error) {
	nodes, err := c.List(ctx, title, 2000)
	if err != nil {
		return nil, err
	}
	out := make([]desktop.Seen, 0, len(nodes))
	for _, n := range nodes {
		if n.AXPath == "" || n.Bounds.Empty() {
			continue
		}
		p := n.AXPath
		out = append(out, desktop.Seen{Bounds: n.Bounds, Enrichment: &events.Enrichment{
			Kind: events.KindAX, Selectors: []events.Selector{}, AXPath: &p,
			Role: atspi.Role(axpath.LastRole(p)), Label: n.Name,
		}})
	}
	return out, nil
}

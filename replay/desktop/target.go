package desktop

import (
	"context"
	"fmt"

	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/selector"
)

// maxNodes bounds how many elements a resolution reads: far more than any
// form shows, few enough that a runaway tree cannot stall a step.
const maxNodes = 5000

// TreeOf is the selector model's view of nodes: the same indices, roles
// mapped onto the selector's.
func TreeOf(nodes []ax.Node) selector.Tree {
	t := make(selector.Tree, len(nodes))
	for i, n := range nodes {
		t[i] = selector.Element{
			Role: selector.RoleOf(n.Role), Name: n.Name, ID: n.ID, Value: n.Value,
			Label: n.Label, Parent: n.Parent, Bounds: n.Bounds, Window: n.Window, App: n.App, Path: n.Path,
		}
	}
	return t
}

// Resolve reads the elements of the window whose title contains window
// ("" for the active one) and returns them with the index of the one s
// names, or a *selector.Miss.
func Resolve(ctx context.Context, l ax.Lister, window string, s selector.Selector) ([]ax.Node, selector.Tree, int, error) {
	nodes, err := l.List(ctx, window, maxNodes)
	if err != nil {
		return nil, nil, -1, fmt.Errorf("list the elements of %q: %w", window, err)
	}
	tree := TreeOf(nodes)
	i, err := selector.Match(s, tree)
	return nodes, tree, i, err
}

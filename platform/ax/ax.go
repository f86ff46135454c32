// Package ax is the accessibility tree reprise reads and acts through on
// every OS: AT-SPI on Linux (ax/atspi), UI Automation on Windows (ax/uia,
// with ax/msaa for the older tree) and AX on macOS (ax/axmac), all writing
// element paths in one format (ax/axpath). Recording enriches steps from
// these trees; replay finds and acts on elements through a Tree.
package ax

import "context"

// Tree is an accessibility tree elements are found and acted on in: the
// system's own is Open's.
type Tree interface {
	// Find returns the elements with role and label in the top-level
	// window titled window; none (and no error) when there is no such
	// window yet.
	Find(ctx context.Context, window, role, label string) ([]Element, error)
	// Fill sets a text field's text; Text reads it back.
	Fill(ctx context.Context, el Element, text string) error
	Text(ctx context.Context, el Element) (string, error)
	// Press clicks a button, link, check box... the toolkit's way.
	Press(ctx context.Context, el Element) error
}

// Element is an element a Tree found: its role in reprise's vocabulary,
// and the tree's own handle, which only that Tree reads.
type Element struct {
	Role   string
	Handle any
}

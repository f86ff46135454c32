// Package ax is the accessibility tree reprise reads and acts through on
// every OS: AT-SPI on Linux (ax/atspi), UI Automation on Windows (ax/uia,
// with ax/msaa for the older tree) and AX on macOS (ax/axmac), all writing
// element paths in one format (ax/axpath). Recording enriches steps from
// these trees; replay finds and acts on elements through a Tree.
package ax

import (
	"context"
	"image"
)

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

// Lister is a Tree that can list a window's elements, which is how a
// selector is resolved and how `reprise elements` shows them.
type Lister interface {
	// List returns the visible elements of the top-level window whose
	// title contains window ("" for the active window), in tree order (a
	// parent before its children), at most limit of them; none (and no
	// error) when there is no such window.
	List(ctx context.Context, window string, limit int) ([]Node, error)
}

// Node is one element as List reads it.
type Node struct {
	// Element is the role in reprise's vocabulary and the tree's handle.
	Element
	// Name is the accessible name, or else the text of the element the
	// application links to it as its label.
	Name string
	// ID is the application's own id (AT-SPI accessible id, UIA
	// automation id, AXIdentifier), if it gives one.
	ID string
	// Value is a field's text; never a password field's.
	Value string
	// Label is the index of the node linked to this one as its label, or
	// -1; Parent the index of its parent, or -1 for the window.
	Label, Parent int
	// Bounds are in screen pixels.
	Bounds image.Rectangle
	// Window is the title of the node's top-level window, App the process
	// image name of its application.
	Window, App string
	// Path is the node's accessibility path (axpath), as steps record it.
	Path string
	// Password marks a secret field.
	Password bool
	// Focused says it has the keyboard focus, where the tree tells.
	Focused bool
}

package axmac

import (
	"context"
	"errors"
	"fmt"

	"github.com/reprise-dev/reprise/platform/ax/axpath"
)

// Element is an element Find found: what At would say of it, and a
// retained AXUIElementRef for Press, SetValue and Value. Release gives the
// reference back; Enricher.Close releases every element not yet released.
// Acting on a released element returns ErrReleased. Copies of an Element
// share its reference: releasing one releases them all.
type Element struct {
	// Role, Label and AXPath are what At reports for the element.
	Role   string
	Label  string
	AXPath string
	// PID is the process that owns the element.
	PID int

	//lint:ignore U1000 the handle is only read on macOS
	h *handle
}

// IsPassword reports whether the element is a secure text field, whose
// value reprise never reads or sets.
func (el Element) IsPassword() bool { return axpath.LastRole(el.AXPath) == RoleSecureTextField }

// ErrNoWindow is returned by Find when no on-screen window has the title
// (or, for an empty title, when no window has the focus).
var ErrNoWindow = errors.New("axmac: no such window in the accessibility tree")

// ErrSecureField is returned when SetValue or Value is asked of a secure
// text field (SPEC section 8: a password is never read or typed).
var ErrSecureField = errors.New("axmac: a secure text field's value is never read or set")

// ErrReleased is returned when an Element was released, or came from an
// Enricher that was closed.
var ErrReleased = errors.New("axmac: element released")

// ErrClosed is returned by an Enricher's methods after Close.
var ErrClosed = errors.New("axmac: enricher closed")

// AXError is an error code the accessibility API returned (AXError.h).
type AXError int32

var axErrorNames = map[AXError]string{
	-25200: "kAXErrorFailure",
	-25201: "kAXErrorIllegalArgument",
	-25202: "kAXErrorInvalidUIElement: the element is gone",
	-25204: "kAXErrorCannotComplete: the application is busy or not answering",
	-25205: "kAXErrorAttributeUnsupported",
	-25206: "kAXErrorActionUnsupported",
	-25208: "kAXErrorNotImplemented: the application does not support accessibility",
	-25211: "kAXErrorAPIDisabled: this process is not trusted for Accessibility",
	-25212: "kAXErrorNoValue",
}

func (e AXError) Error() string {
	if n, ok := axErrorNames[e]; ok {
		return fmt.Sprintf("AXError %d (%s)", int32(e), n)
	}
	return fmt.Sprintf("AXError %d", int32(e))
}

// roleMatches reports whether an element with AX role axRole and subrole
// has reprise role want; an empty want matches any.
func roleMatches(axRole, subrole, want string) bool {
	return want == "" || Role(SegmentRole(axRole, subrole)) == want
}

// isSecure reports whether role and subrole are a secure text field's.
func isSecure(axRole, subrole string) bool {
	return SegmentRole(axRole, subrole) == RoleSecureTextField
}

// pickLabel applies the label rules (see the package comment) to an
// element: attr reads one of its string attributes by name, titleElement
// one of its AXTitleUIElement's. It asks for what it needs in order and
// stops at the first label it finds, and never asks for the element's own
// AXValue.
func pickLabel(attr, titleElement func(name string) string) string {
	if s := attr("AXTitle"); s != "" {
		return s
	}
	if s := titleElement("AXValue"); s != "" {
		return s
	}
	if s := titleElement("AXTitle"); s != "" {
		return s
	}
	if s := attr("AXDescription"); s != "" {
		return s
	}
	return attr("AXPlaceholderValue")
}

// distinctPIDs returns the process ids in pids once each, in order,
// without self and without non-positive ids.
func distinctPIDs(pids []int, self int) []int {
	seen := make(map[int]bool, len(pids))
	var out []int
	for _, p := range pids {
		if p <= 0 || p == self || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// search walks the tree under root depth first, in tree order, and returns
// the elements match accepts. It reads at most maxScan elements and goes at
// most maxDepth levels below root; when ctx ends it returns ctx's error.
func search[T any](ctx context.Context, root T, children func(T) []T, match func(T) bool, maxScan, maxDepth int) ([]T, error) {
	type item struct {
		el    T
		depth int
	}
	var out []T
	stack := []item{{root, 0}}
	for seen := 0; len(stack) > 0 && seen < maxScan; seen++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if match(it.el) {
			out = append(out, it.el)
		}
		if it.depth >= maxDepth {
			continue
		}
		kids := children(it.el)
		for i := len(kids) - 1; i >= 0; i-- { // pushed in reverse: popped in order
			stack = append(stack, item{kids[i], it.depth + 1})
		}
	}
	return out, nil
}

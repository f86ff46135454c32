package ax

import (
	"context"
	"errors"
)

// Chooser is a Tree that reads and sets choice controls the toolkit's own
// way: a combo box's or list box's selected option (AT-SPI Selection, UIA
// SelectionItem and ExpandCollapse, MSAA default actions, AX value), a
// check box's state. Replay acts on a choice only through it: a choice
// set by clicks at a position is never proven.
type Chooser interface {
	// Choice reads el's options and selected option, or its checked
	// state.
	Choice(ctx context.Context, el Element) (Choice, error)
	// Choose selects el's option whose name is exactly option, expanding
	// a combo box first where the toolkit needs it. It does not read the
	// choice back: the caller does.
	Choose(ctx context.Context, el Element, option string) error
}

// Choice is a choice control's state as the tree shows it.
type Choice struct {
	// Options are the options' names in order, and Selected the name of
	// the selected one ("" for none), for a combo box or list box.
	Options  []string
	Selected string
	// Checkable marks a check box, switch or toggle; Checked is its state.
	Checkable bool
	Checked   bool
}

// ErrNoOption is what Choose returns when el has no option of that name.
var ErrNoOption = errors.New("the control has no such option")

// OptionIndex is the index of the option named exactly name among
// options; -1 when there is none, and when two share it (never a guess).
func OptionIndex(options []string, name string) int {
	at := -1
	for i, o := range options {
		if o == name {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

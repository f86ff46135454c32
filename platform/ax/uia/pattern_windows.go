package uia

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	"github.com/reprise-dev/reprise/platform/win32"

	"github.com/reprise-dev/reprise/events"
)

// patternIID is the interface each pattern id is asked for.
var patternIID = map[Pattern]*guid{
	InvokePattern:         &iidInvokePattern,
	ValuePattern:          &iidValuePattern,
	ExpandCollapsePattern: &iidExpandCollapsePattern,
	SelectionItemPattern:  &iidSelectionItemPattern,
	TogglePattern:         &iidTogglePattern,
}

// errNoPattern is wrapped when an element does not support a pattern.
var errNoPattern = errors.New("the element does not support the pattern")

// pattern gets el's pattern p (GetCurrentPattern, then QueryInterface for
// the pattern's own interface). The caller releases it.
func pattern(el *object, p Pattern) (*object, error) {
	var unk *object
	if err := check("GetCurrentPattern("+p.String()+")", el.callUP(mGetCurrentPattern, uintptr(p), unsafe.Pointer(&unk))); err != nil {
		return nil, err
	}
	if unk == nil {
		return nil, fmt.Errorf("uia: %s pattern: %w", p, errNoPattern)
	}
	defer unk.release()
	return queryInterface(unk, patternIID[p])
}

// element is the stored element for el and its checks: not a password
// field (by its path, and again by UIA now), not in a process of higher
// integrity than ours.
func (c *Client) element(el Element) (*object, error) {
	o, ok := c.els[el.h.id]
	if !ok {
		return nil, ErrReleased
	}
	if el.IsPassword() {
		return nil, ErrPassword
	}
	if pw, err := getInt32(o, mGetCurrentIsPassword, "get_CurrentIsPassword"); err != nil {
		return nil, err
	} else if pw != 0 {
		return nil, ErrPassword
	}
	if c.oursErr != nil {
		return nil, fmt.Errorf("uia: our own integrity level: %w", c.oursErr)
	}
	theirs, app, err := processIntegrity(uint32(el.PID))
	if err != nil {
		return nil, fmt.Errorf("uia: integrity level of process %d: %w; not acting on it", el.PID, err)
	}
	return o, RefuseHigher(c.ours, theirs, app)
}

// Act carries out a recorded step's action (events.Action...) on el
// through the pattern PatternFor picks: a fill sets the value, a click
// invokes, toggles, selects or expands; a select on a combo box expands
// it and selects the item named value. A click into a text field gives it
// the focus. It refuses password fields and elements of a process with a
// higher integrity level than ours (RefuseHigher).
func (c *Client) Act(ctx context.Context, el Element, action, value string) error {
	_, err := c.do(ctx, func(ctx context.Context) (any, error) {
		o, err := c.element(el)
		if err != nil {
			return nil, err
		}
		p, ok := PatternFor(action, el.Role)
		if !ok {
			if action == events.ActionClick && el.Role == "textbox" {
				return nil, check("SetFocus", o.call(mSetFocus))
			}
			return nil, fmt.Errorf("uia: no pattern can %s a %s", action, el.Role)
		}
		pat, err := pattern(o, p)
		if err != nil {
			return nil, err
		}
		defer pat.release()
		switch p {
		case InvokePattern:
			return nil, check("Invoke", pat.call(mInvoke))
		case TogglePattern:
			return nil, check("Toggle", pat.call(mToggle))
		case SelectionItemPattern:
			return nil, check("Select", pat.call(mSelect))
		case ValuePattern:
			return nil, setValue(pat, value)
		case ExpandCollapsePattern:
			if err := check("Expand", pat.call(mExpand)); err != nil || action != events.ActionSelect || value == "" {
				return nil, err
			}
			err := c.selectItem(ctx, o, value)
			if cerr := check("Collapse", pat.call(mCollapse)); err == nil {
				err = cerr
			}
			return nil, err
		}
		return nil, fmt.Errorf("uia: %s pattern not handled", p)
	}, nil)
	return err
}

func setValue(pat *object, value string) error {
	if ro, err := getInt32(pat, mGetCurrentValueIsReadOnly, "get_CurrentIsReadOnly"); err == nil && ro != 0 {
		return errors.New("uia: the field is read-only")
	}
	b, err := allocBSTR(value)
	if err != nil {
		return err
	}
	defer win32.FreeBSTR(b)
	return check("SetValue", pat.callU(mSetValue, b))
}

// selectItem selects the list item named name among an expanded combo
// box's descendants.
func (c *Client) selectItem(ctx context.Context, combo *object, name string) error {
	combo.call(mAddRef) // findIn releases the root it walks from
	items, err := c.findIn(ctx, combo, "listitem", name)
	if err != nil {
		return err
	}
	defer c.forget(ids(items))
	if len(items) != 1 {
		return fmt.Errorf("uia: the list has %d items named %q, not one", len(items), name)
	}
	pat, err := pattern(c.els[items[0].h.id], SelectionItemPattern)
	if err != nil {
		return err
	}
	defer pat.release()
	return check("Select", pat.call(mSelect))
}

// Value reads el's value back: a field's text (ValuePattern), or for a
// checkbox "checked", "unchecked" or "mixed" (TogglePattern). It refuses
// password fields.
func (c *Client) Value(ctx context.Context, el Element) (string, error) {
	v, err := c.do(ctx, func(ctx context.Context) (any, error) {
		o, ok := c.els[el.h.id]
		if !ok {
			return "", ErrReleased
		}
		if el.IsPassword() {
			return "", ErrPassword
		}
		// Asked again: a field can turn secret (a "show password" box
		// unticked). Unknown is not read either.
		if pw, err := getInt32(o, mGetCurrentIsPassword, "get_CurrentIsPassword"); err != nil {
			return "", fmt.Errorf("%w; not reading a field that may be a password", err)
		} else if pw != 0 {
			return "", ErrPassword
		}
		if el.Role == "checkbox" {
			pat, err := pattern(o, TogglePattern)
			if err != nil {
				return "", err
			}
			defer pat.release()
			st, err := getInt32(pat, mGetCurrentToggleState, "get_CurrentToggleState")
			if err != nil {
				return "", err
			}
			return ToggleValue(st), nil
		}
		pat, err := pattern(o, ValuePattern)
		if err != nil {
			return "", err
		}
		defer pat.release()
		return getString(pat, mGetCurrentValue, "get_CurrentValue")
	}, nil)
	s, _ := v.(string)
	return s, err
}

package browser

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/reprise-dev/reprise/replay"
)

// failure is a step the page refused: it becomes an Outcome's Error, not a
// Go error.
type failure string

func (f failure) Error() string { return string(f) }

// Do runs one step. A step the page refused is an Outcome with OK false;
// the Go error is kept for a browser that is gone or a ctx that is done.
//
// A secret step is never typed: Do returns OK false with an Error that
// starts with replay.ErrNeedsPerson's text, and a nil Go error, so the
// engine hands the step to the person. A destructive step in a dry run is
// found but not run: OK true, Committed false.
func (e *Executor) Do(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	if e.tab.Err() != nil {
		return replay.Outcome{}, ErrClosed
	}
	start := time.Now()
	before := e.prevURL
	cctx, stop := e.bind(ctx)
	defer stop()
	url, _ := chromedp.Run(cctx, chromedp.Location())
	e.prevURL = url

	out, err := e.do(cctx, st, before, url)
	if err != nil {
		if _, ok := err.(failure); !ok {
			if gerr := e.gone(ctx); gerr != nil {
				return out, fmt.Errorf("step %d (%s): %w", st.Index, st.Action, gerr)
			}
		}
		// The browser answers: the page refused the step. A protocol error
		// may quote the page's script, so only our own failures keep their
		// text.
		out.OK = false
		if f, ok := err.(failure); ok {
			out.Error = string(f)
		} else {
			out.Error = fmt.Sprintf("step %d (%s): the browser could not do it: %s", st.Index, st.Action, errKind(err))
		}
	}
	e.log.DebugContext(ctx, "step", keyRow, st.Row, keyStep, st.Index, keyAction, st.Action,
		keyVia, out.Via, keySelector, out.Selector, keyOK, out.OK, keyMillis, time.Since(start).Milliseconds())
	return out, nil
}

// do runs st; prev is the URL before the previous step, url the one now.
func (e *Executor) do(ctx context.Context, st replay.Step, prev, url string) (replay.Outcome, error) {
	out := replay.Outcome{Selector: -1}
	if st.Secret {
		out.Error = fmt.Sprintf("%s: step %d (%s %q) is a secret field; type it yourself, then go on", replay.ErrNeedsPerson, st.Index, st.Action, st.Label)
		return out, nil
	}
	if st.Wait != nil {
		if err := e.await(ctx, *st.Wait, prev, 10*time.Second); err != nil {
			return out, failure(fmt.Sprintf("step %d (%s): waiting before it: %v", st.Index, st.Action, err))
		}
	}
	switch st.Action {
	case "navigate":
		if err := chromedp.Do(ctx, chromedp.Navigate(st.Value)); err != nil {
			if le := (*chromedp.LoadError)(nil); errors.As(err, &le) {
				return out, failure(fmt.Sprintf("step %d (navigate): the page did not load: %s", st.Index, le.ErrorText))
			}
			return out, err
		}
		out.OK = true
		return out, nil
	case "wait":
		if st.Wait == nil {
			return out, failure(fmt.Sprintf("step %d (wait) has no condition", st.Index))
		}
		out.OK = true
		return out, nil
	case "assert":
		if len(st.Assert) == 0 {
			return out, failure(fmt.Sprintf("step %d (assert) has no condition", st.Index))
		}
		for _, c := range st.Assert {
			if err := e.await(ctx, c, prev, 10*time.Second); err != nil {
				return out, failure(fmt.Sprintf("step %d (assert): %v", st.Index, err))
			}
		}
		out.OK = true
		return out, nil
	case "fill", "select", "click", "submit", "upload":
	default:
		return out, failure(fmt.Sprintf("step %d: the browser executor cannot %q", st.Index, st.Action))
	}

	// Before anything else, a navigation the previous step started must end.
	if err := e.waitLoaded(ctx, 10*time.Second); err != nil {
		return out, err
	}
	f, err := e.find(ctx, st, &out)
	if err != nil {
		return out, err
	}
	if !f.Ready {
		return out, failure(fmt.Sprintf("step %d (%s): the page did not finish loading", st.Index, st.Action))
	}
	if f.Hit < 0 {
		return out, failure(notFound(st, f.Counts))
	}
	if st.Destructive && st.DryRun {
		out.OK = true // found, not run: a dry run commits nothing
		return out, nil
	}
	seq, _ := e.nav.state()
	if err := e.act(ctx, st, f); err != nil {
		return out, err
	}
	if err := e.readBack(ctx, st); err != nil {
		return out, err
	}
	if st.Action == "click" && f.Type != "checkbox" && f.Type != "radio" || st.Action == "submit" {
		if err := e.settle(ctx, seq, 10*time.Second); err != nil {
			return out, err
		}
	}
	if st.Destructive {
		return e.commit(ctx, st, url, out)
	}
	out.OK = true
	return out, nil
}

// act does st on the found element.
func (e *Executor) act(ctx context.Context, st replay.Step, f found) error {
	switch {
	case st.Action == "upload" || f.Tag == "input" && f.Type == "file" && st.Action == "fill":
		return e.upload(ctx, st)
	case st.Action == "select" || f.Tag == "select" && st.Action == "fill":
		reason, err := chromedp.Run(ctx, pageOp[string]("select", map[string]string{"value": st.Value}))
		if err == nil && reason != "" {
			err = failure(fmt.Sprintf("step %d (select %q): %s", st.Index, st.Label, reason))
		}
		return err
	case st.Action == "fill" && (f.Type == "checkbox" || f.Type == "radio"), st.Action == "click":
		return e.click(ctx, st, f)
	case st.Action == "submit":
		reason, err := chromedp.Run(ctx, pageOp[string]("submit", nil))
		if err == nil && reason != "" {
			err = failure(fmt.Sprintf("step %d (submit): %s", st.Index, reason))
		}
		return err
	}
	return e.fill(ctx, st, f)
}

// typed are the input types a person types into; the others (date, time,
// color, range...) take their value from a picker, so fill sets it.
var typed = map[string]bool{"": true, "text": true, "search": true, "email": true, "url": true,
	"tel": true, "number": true, "password": true}

// fill types the value as a person would: focus, select what is there,
// type it with real key events (keydown, keypress, input), leave the field
// (change). Fields without a keyboard entry, and text the keyboard cannot
// put in a one-line input (a line break would press Enter and submit), get
// the value through the native setter plus input and change events.
func (e *Executor) fill(ctx context.Context, st replay.Step, f found) error {
	canType := f.Editable || f.Tag == "textarea" || f.Tag == "input" && typed[f.Type] && !strings.ContainsAny(st.Value, "\r\n")
	if canType {
		type focus struct {
			Focused bool `json:"focused"`
			Empty   bool `json:"empty"`
		}
		fo, err := chromedp.Run(ctx, pageOp[focus]("focus", nil))
		if err != nil {
			return err
		}
		if fo.Focused {
			keys := st.Value
			if keys == "" && !fo.Empty {
				keys = kb.Backspace
			}
			return chromedp.Do(ctx, chromedp.KeyEvent(keys), pageOp[chromedp.Void]("blur", nil))
		}
		// Focus did not reach the field (a frame that cannot take it): set it.
	}
	if f.Tag != "input" && f.Tag != "textarea" && !f.Editable {
		return failure(fmt.Sprintf("step %d (fill %q): the element is a %s, not a field", st.Index, st.Label, f.Tag))
	}
	return chromedp.Do(ctx, pageOp[chromedp.Void]("set", map[string]string{"value": st.Value}))
}

// click clicks with the mouse at the element's centre, as a person does,
// or with the DOM's click() when something covers that point. For a
// checkbox, st.Value is the state it must end in: a box already in it is
// not clicked.
func (e *Executor) click(ctx context.Context, st replay.Step, f found) error {
	type pt struct {
		X, Y    float64
		Lands   bool  `json:"lands"`
		Checked *bool `json:"checked"`
	}
	p, err := chromedp.Run(ctx, pageOp[pt]("point", nil))
	if err != nil {
		return err
	}
	if f.Type == "checkbox" && (st.Value == "true" || st.Value == "false") && p.Checked != nil {
		if (st.Value == "true") == *p.Checked {
			return nil
		}
	}
	if f.Type == "radio" && p.Checked != nil && *p.Checked {
		return nil
	}
	if p.Lands {
		err = chromedp.Do(ctx, chromedp.MouseClickXY(p.X, p.Y))
	} else {
		err = chromedp.Do(ctx, pageOp[chromedp.Void]("click", nil))
	}
	if err != nil || f.Type != "checkbox" || (st.Value != "true" && st.Value != "false") {
		return err
	}
	checked, err := chromedp.Run(ctx, pageOp[bool]("checked", nil))
	if err == nil && (st.Value == "true") != checked {
		err = failure(fmt.Sprintf("step %d (click %q): the checkbox did not end in the wanted state", st.Index, st.Label))
	}
	return err
}

// upload sets the file input's files. The path is the step's value: it
// never appears in an error.
func (e *Executor) upload(ctx context.Context, st replay.Step) error {
	if !filepath.IsAbs(st.Value) {
		return failure(fmt.Sprintf("step %d (upload %q): the value is not an absolute file path", st.Index, st.Label))
	}
	if fi, err := os.Stat(st.Value); err != nil || !fi.Mode().IsRegular() {
		return failure(fmt.Sprintf("step %d (upload %q): the file to upload does not exist or is not a regular file", st.Index, st.Label))
	}
	const group = "reprise-upload"
	obj, err := chromedp.Run(ctx, chromedp.Evaluate[*runtime.RemoteObject]("window.__repriseTarget", chromedp.EvalObjectGroup(group)))
	if err != nil {
		return err
	}
	defer func() {
		_, _ = chromedp.Call(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
	}()
	// DOM.setFileInputFiles by object id, as chromedp.SetUploadFiles does
	// by node id: it reaches an input in a frame or a shadow root alike,
	// and Chromium fires input and change.
	_, err = chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{st.Value}, ObjectID: obj.ObjectID})
	return err
}

// errKind keeps the kind of a browser error for a person, without the
// text that may quote the page or a value.
func errKind(err error) string {
	var ex *chromedp.ExceptionError
	if errors.As(err, &ex) {
		return "the page's script threw an exception"
	}
	if le := (*chromedp.LoadError)(nil); errors.As(err, &le) {
		return "load error " + le.ErrorText
	}
	return "protocol error"
}

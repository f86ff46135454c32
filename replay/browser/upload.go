package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/rows"
)

// pickerWait is how long an upload's click may take to open a file picker.
var pickerWait = 5 * time.Second

type fileInput struct {
	Self     bool `json:"self"`     // the element is the file input (or its label)
	Multiple bool `json:"multiple"` // the input takes several files
	Count    int  `json:"count"`    // file inputs in the element or its nearest ancestor holding any
}

// upload gives the step's files to the page. The element is the file
// input, or a label, button or drop zone: then its click opens the file
// picker, which the browser intercepts (no window shows) and which gets
// the files; when no picker opens, the one file input in the element or
// its nearest ancestor holding any gets them. Every file is checked
// before the page is touched, and a single-file input given several fails
// before any is given. Names and paths never reach an error.
func (e *Executor) upload(ctx context.Context, st replay.Step) error {
	files, err := rows.ResolveFiles(st.Value, e.filesDir)
	if err != nil {
		return failure(fmt.Sprintf("%s: %v", stepRef(st), err))
	}
	fi, err := chromedp.Run(ctx, pageOp[fileInput](e.world, "fileinput", nil))
	if err != nil {
		return err
	}
	if fi.Self {
		if err := e.giveFiles(ctx, st, files, fi.Multiple); err != nil {
			return err
		}
		return e.keepFiles(ctx, st, files)
	}
	if !e.intercepting {
		if _, err := chromedp.Call(ctx, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: true}); err != nil {
			return err
		}
		e.intercepting = true
	}
	select {
	case <-e.files: // a picker the page opened before this step
	default:
	}
	p, err := chromedp.Run(ctx, pageOp[clickPoint](e.world, "point", nil))
	if err != nil {
		return err
	}
	if err := e.press(ctx, p, "click"); err != nil {
		return err
	}
	timer := time.NewTimer(pickerWait)
	defer timer.Stop()
	select {
	case fc := <-e.files:
		if fc.Mode == page.FileChooserOpenedModeSelectSingle && len(files) > 1 {
			return failure(fmt.Sprintf("%s: the file picker takes one file and the row names %d; none was given", stepRef(st), len(files)))
		}
		if _, err := chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: files, BackendNodeID: fc.BackendNodeID}); err != nil {
			return err
		}
		return e.keepFiles(ctx, st, files)
	case <-timer.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	if fi.Count != 1 {
		return failure(fmt.Sprintf("%s: the click opened no file picker, and the element and its nearest container hold %d file inputs, not one", stepRef(st), fi.Count))
	}
	if err := e.giveFiles(ctx, st, files, fi.Multiple); err != nil {
		return err
	}
	return e.keepFiles(ctx, st, files)
}

// giveFiles sets the files of the input "fileinput" chose, by object id:
// it reaches an input in a frame or a shadow root alike, and Chromium
// fires input and change.
func (e *Executor) giveFiles(ctx context.Context, st replay.Step, files []string, multiple bool) error {
	if len(files) > 1 && !multiple {
		return failure(fmt.Sprintf("%s: the file input takes one file and the row names %d; none was given", stepRef(st), len(files)))
	}
	const group = "reprise-upload"
	obj, err := chromedp.Run(ctx, pageOp[*runtime.RemoteObject](e.world, "fileobj", nil, chromedp.EvalObjectGroup(group)))
	if err != nil {
		return err
	}
	defer func() {
		_, _ = chromedp.Call(ctx, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: group})
	}()
	_, err = chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: files, ObjectID: obj.ObjectID})
	return err
}

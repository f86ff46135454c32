package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/extension"
)

// pageJS is the page side: one function (D, S, op, args) that finds
// elements, acts on the found one and checks conditions, so each is one
// evaluation. D is the recorder's own DOM model (extension/dom.js).
//
//go:embed page.js
var pageJS string

// worldName names the isolated world the executor's scripts run in.
const worldName = "reprise-replay"

// installJS defines, in the isolated world, the one function every op
// calls. The DOM model and page.js live in a closure there: the page's own
// scripts run in another world and can neither call nor change them, nor
// the element a step found, which stays in S between calls.
var installJS = "globalThis.__reprise = ((D) => { const S = { target: null, unit: null, option: null, base: new WeakMap() }; const page = " +
	strings.TrimSpace(pageJS) + "; return (op, a) => page(D, S, op, a); })((() => {\n" + extension.DOMModelJS + "\nreturn RepriseDOM; })()); true"

// newDocumentJS installs the scripts in the executor's world of each new
// top-level document as the browser makes it (registered once a tab), so
// an op finds them there: shipping and parsing them on the first op after
// each navigation took 15-20 ms a row. A frame's own document gets none.
var newDocumentJS = "if (window === window.top) { " + installJS + " }"

// world is the executor's isolated world in the tab's main frame. The
// browser makes it with each new document and runs newDocumentJS there;
// where it did not (a page the executor attached to, a document made
// before the script was registered), the first op creates the world (one
// round trip) and installs the scripts.
type world struct {
	frame cdp.FrameID

	mu      sync.Mutex
	current string                                // unique id of the installed world's context
	made    string                                // unique id of the world the browser made for the main frame's newest document
	created map[runtime.ExecutionContextID]string // our worlds' contexts, id -> unique id
}

func newWorld() *world { return &world{created: map[runtime.ExecutionContextID]string{}} }

// observe runs on chromedp's reader goroutine: it only records.
func (w *world) observe(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventExecutionContextCreated:
		if ev.Context.Name == worldName {
			if len(w.created) > 64 {
				clear(w.created)
			}
			w.created[ev.Context.ID] = ev.Context.UniqueID
			var aux struct {
				FrameID cdp.FrameID `json:"frameId"`
			}
			if json.Unmarshal(ev.Context.AuxData, &aux) == nil && aux.FrameID == w.frame && w.frame != "" {
				w.made = ev.Context.UniqueID
			}
		}
	case *runtime.EventExecutionContextDestroyed:
		if ev.ExecutionContextUniqueID == w.current {
			w.current = ""
		}
		if ev.ExecutionContextUniqueID == w.made {
			w.made = ""
		}
	case *runtime.EventExecutionContextsCleared:
		w.current, w.made = "", ""
	}
}

// context returns the unique id of the installed world, creating and
// installing it when the document has none.
func (w *world) context(ctx context.Context, t *chromedp.Target) (string, error) {
	w.mu.Lock()
	cur := w.current
	if cur == "" && w.made != "" {
		cur, w.current = w.made, w.made
	}
	w.mu.Unlock()
	if cur != "" {
		return cur, nil
	}
	res, err := cdp.Call(ctx, t, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: w.frame, WorldName: worldName})
	if err != nil {
		return "", err
	}
	// The context's creation event comes before the command's answer; a
	// moment's grace all the same.
	var uniq string
	for deadline := time.Now().Add(time.Second); ; time.Sleep(5 * time.Millisecond) {
		w.mu.Lock()
		uniq = w.created[res.ExecutionContextID]
		w.mu.Unlock()
		if uniq != "" || time.Now().After(deadline) {
			break
		}
	}
	if uniq == "" {
		return "", errors.New("the isolated world's context was not announced")
	}
	if _, err := chromedp.Evaluate[bool](installJS, inContext(uniq))(ctx, t); err != nil {
		return "", err
	}
	w.mu.Lock()
	w.current = uniq
	w.mu.Unlock()
	return uniq, nil
}

// forget drops a world whose context is gone (a navigation replaced the
// document), so the next op makes a new one.
func (w *world) forget(uniq string) {
	w.mu.Lock()
	if w.current == uniq {
		w.current = ""
	}
	w.mu.Unlock()
}

func inContext(uniq string) chromedp.EvaluateOption {
	return func(p *runtime.EvaluateParams) { p.UniqueContextID = uniq }
}

// pageOp evaluates one op of page.js in the executor's world of the top
// frame. args go as a JSON literal, which is also a JavaScript literal
// (encoding/json escapes U+2028 and U+2029), so no value is ever spliced
// into code.
func pageOp[T any](w *world, op string, args any, opts ...chromedp.EvaluateOption) chromedp.Action[T] {
	return func(ctx context.Context, t *chromedp.Target) (T, error) {
		var zero T
		a, err := json.Marshal(args)
		if err != nil {
			return zero, fmt.Errorf("encode %s args: %w", op, err)
		}
		expr := "__reprise(" + fmt.Sprintf("%q", op) + ", " + string(a) + ")"
		for attempt := 0; ; attempt++ {
			uniq, err := w.context(ctx, t)
			if err != nil {
				return zero, err
			}
			v, err := chromedp.Evaluate[T](expr, append(opts, inContext(uniq))...)(ctx, t)
			switch {
			case err == nil || attempt > 0:
				return v, err
			case notInstalled(err):
				// A world the browser made whose script did not run.
				if _, err := chromedp.Evaluate[bool](installJS, inContext(uniq))(ctx, t); err != nil {
					return zero, err
				}
				continue
			case !contextGone(err):
				return v, err
			}
			w.forget(uniq)
		}
	}
}

// notInstalled reports an op in a world without the scripts.
func notInstalled(err error) bool {
	var ex *chromedp.ExceptionError
	return errors.As(err, &ex) && strings.Contains(ex.Error(), "__reprise is not defined")
}

// contextGone reports an evaluation refused because its context no longer
// exists: the document it belonged to was replaced.
func contextGone(err error) bool {
	var ex *chromedp.ExceptionError
	if errors.As(err, &ex) {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "context") && (strings.Contains(s, "find") || strings.Contains(s, "destroyed") || strings.Contains(s, "not found"))
}

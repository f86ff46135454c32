package script

import (
	"strings"

	"github.com/dop251/goja"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/computer"
)

// desktopTarget names the whole-desktop frame beside window ids.
const desktopTarget = "desktop"

// windowView is a window as a script reads it.
type windowView struct {
	ID      string  `json:"id"`
	App     string  `json:"app"`
	Title   string  `json:"title"`
	PID     int     `json:"pid,omitempty"`
	Bounds  boxView `json:"bounds"`
	Focused bool    `json:"focused"`
	// Refused is the COMPUTER_ code that keeps reprise off the window,
	// with its reason: listed, never dropped.
	Refused string `json:"refused,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Bound   bool   `json:"bound"` // the grant's window
}

type boxView struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// windowQuery is desktop.windows()'s and desktop.window()'s filter:
// case-insensitive substrings.
type windowQuery struct {
	App   string `json:"app"`
	Title string `json:"title"`
}

func (q windowQuery) match(t api.Target) bool {
	return strings.Contains(strings.ToLower(t.App), strings.ToLower(q.App)) &&
		strings.Contains(strings.ToLower(t.Title), strings.ToLower(q.Title))
}

func (r *Runtime) targets() []api.Target {
	ts, err := r.broker.Targets(r.run.ctx)
	r.must(err)
	return ts
}

func (r *Runtime) view(t api.Target, bound string) windowView {
	b := t.Bounds
	return windowView{ID: t.ID, App: t.App, Title: t.Title, PID: t.PID, Focused: t.Focused,
		Bounds:  boxView{b.Min.X, b.Min.Y, b.Dx(), b.Dy()},
		Refused: t.Refused, Reason: t.Reason, Bound: t.ID == bound}
}

// desktopObject is the global desktop: discovery, the whole-desktop
// frame's input, AX lookups by point, the clipboard.
func (r *Runtime) desktopObject() *goja.Object {
	vm := r.vm
	d := vm.NewObject()
	_ = d.Set("windows", func(q goja.Value) goja.Value {
		var wq windowQuery
		r.options(q, &wq)
		g := r.grant()
		out := []windowView{}
		for _, t := range r.targets() {
			if wq.match(t) {
				out = append(out, r.view(t, g.Target.ID))
			}
		}
		return r.value(out)
	})
	_ = d.Set("window", func(q goja.Value) goja.Value {
		var wq windowQuery
		id := ""
		if s, ok := q.Export().(string); ok {
			id = s
		} else {
			r.options(q, &wq)
		}
		g := r.grant()
		var found []api.Target
		for _, t := range r.targets() {
			if id != "" && t.ID == id || id == "" && wq.match(t) {
				found = append(found, t)
			}
		}
		switch len(found) {
		case 0:
			r.throw(fail(WindowNotFound, "no window matches"))
		case 1:
			return r.windowObject(found[0], g.Target.ID)
		}
		names := make([]string, len(found))
		for i, t := range found {
			names[i] = t.ID + " " + t.App + " " + quote(t.Title)
		}
		r.throw(fail(InvalidTarget, "%d windows match: %s; name one by id", len(found), strings.Join(names, ", ")))
		return nil
	})
	_ = d.Set("focusedWindow", func() goja.Value {
		g := r.grant()
		for _, t := range r.targets() {
			if t.Focused {
				return r.windowObject(t, g.Target.ID)
			}
		}
		return goja.Null()
	})
	_ = d.Set("displays", func() goja.Value {
		r.grant()
		if r.plat.Displays == nil {
			r.throw(fail(CaptureFailed, "this OS gives reprise no display list"))
		}
		rects, err := r.plat.Displays()
		if err != nil {
			r.throw(fail(CaptureFailed, "list displays: %v", err))
		}
		out := make([]map[string]any, len(rects))
		for i, b := range rects {
			out[i] = map[string]any{"id": i, "primary": i == 0, "bounds": boxView{b.Min.X, b.Min.Y, b.Dx(), b.Dy()}}
		}
		return r.value(out)
	})
	_ = d.Set("capabilities", func() goja.Value { return r.value(r.capabilities()) })
	r.inputMethods(d, func() string { return desktopTarget })
	_ = d.Set("elementAt", func(x, y int) goja.Value { return r.elementAt(x, y) })
	_ = d.Set("focusedElement", r.focusedElement)
	_ = d.Set("clipboard", r.clipboardObject())
	return d
}

// windowObject is a window facade: immutable fields, its own frame, its
// accessibility tree.
func (r *Runtime) windowObject(t api.Target, bound string) *goja.Object {
	v := r.view(t, bound)
	o := r.value(v).ToObject(r.vm)
	id := t.ID
	r.inputMethods(o, func() string { return id })
	_ = o.Set("raise", func() goja.Value {
		r.writable("raise()")
		r.raise(r.bind(id))
		return goja.Undefined()
	})
	_ = o.Set("ax", func(opts goja.Value) goja.Value { return r.axText(id, opts) })
	_ = o.Set("find", func(q goja.Value) goja.Value { return r.find(id, q) })
	_ = o.Set("ref", func(ref string) goja.Value { return r.refObject(id, ref) })
	return o
}

// bind makes the grant's window id's: a desktop grant is rebound (every
// refusal runs again, the revision advances, older frames and refs go
// stale); a window grant pinned elsewhere refuses.
func (r *Runtime) bind(id string) computer.Window {
	g := r.grant()
	if g.Target.ID == id {
		return g.Target
	}
	g, err := r.broker.Rebind(r.run.ctx, r.grantID, id)
	r.must(err)
	return g.Target
}

func (r *Runtime) capabilities() map[string]any {
	g, ok := r.broker.Describe()
	grant := map[string]any{"active": ok && g.ID == r.grantID}
	if ok && g.ID == r.grantID {
		grant = map[string]any{"active": true, "id": g.ID, "scope": g.Scope, "capture": g.Capture,
			"window": g.Target.ID, "revision": g.Revision, "budgetLeft": g.Budget}
	}
	displays := 0
	if r.plat.Displays != nil {
		if ds, err := r.plat.Displays(); err == nil {
			displays = len(ds)
		}
	}
	_, mouse := r.plat.Input.(interface{ Scroll(int, int) error })
	return map[string]any{
		"backend":       r.plat.Backend,
		"displayServer": r.plat.Backend,
		"displays":      displays,
		"capture":       r.plat.Screen != nil && ok && g.Capture == computer.CapturePixels,
		"input":         r.plat.Input != nil,
		"pointer":       mouse,
		"ax":            r.plat.Tree != nil,
		"clipboard":     r.plat.Clipboard != nil,
		// XTEST and SendInput reach what is under the pointer and what has
		// the focus: input that must not change focus is refused instead.
		"deliveryModes": []string{"foreground"},
		"grant":         grant,
	}
}

func quote(s string) string { return "\"" + s + "\"" }

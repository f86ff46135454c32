package script

import (
	"fmt"
	"image"
	"image/draw"
	"os"
	"path/filepath"

	"github.com/dop251/goja"

	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/platform/keys"
	"github.com/reprise-dev/reprise/platform/screen"
)

// frame is the latest screenshot of one target: pixel coordinates given
// for that target are read against it, and its basis is what the broker
// checks right before the input.
type frame struct {
	basis  computer.Basis
	origin image.Point // the screen point of the shot's (0, 0)
	size   image.Point
}

// pointerOpts are click's, drag's and scroll's options.
type pointerOpts struct {
	Button    string   `json:"button"`
	Count     int      `json:"count"`
	Modifiers []string `json:"modifiers"`
	Delivery  string   `json:"delivery"`
	DX        int      `json:"dx"`
	DY        int      `json:"dy"`
	Silent    bool     `json:"silent"`
}

// inputMethods puts screenshot and input on o (the desktop or a window),
// all read against target's frame.
func (r *Runtime) inputMethods(o *goja.Object, target func() string) {
	opts := func(v goja.Value) pointerOpts {
		var p pointerOpts
		r.options(v, &p)
		return p
	}
	_ = o.Set("screenshot", func(v goja.Value) goja.Value { return r.value(r.screenshot(target())) })
	_ = o.Set("click", func(x, y int, v goja.Value) goja.Value {
		p := opts(v)
		r.pointer(target(), "click", []image.Point{{x, y}}, p)
		return goja.Undefined()
	})
	_ = o.Set("doubleClick", func(x, y int, v goja.Value) goja.Value {
		p := opts(v)
		p.Count = 2
		r.pointer(target(), "double_click", []image.Point{{x, y}}, p)
		return goja.Undefined()
	})
	_ = o.Set("move", func(x, y int) goja.Value {
		r.pointer(target(), "move", []image.Point{{x, y}}, pointerOpts{})
		return goja.Undefined()
	})
	_ = o.Set("drag", func(path [][]int, v goja.Value) goja.Value {
		pts := make([]image.Point, len(path))
		for i, p := range path {
			if len(p) != 2 {
				r.throw(fail(InvalidTarget, "drag: point %d is not [x, y]", i))
			}
			pts[i] = image.Pt(p[0], p[1])
		}
		if len(pts) < 2 {
			r.throw(fail(InvalidTarget, "drag: give at least two points"))
		}
		r.pointer(target(), "drag", pts, opts(v))
		return goja.Undefined()
	})
	_ = o.Set("scroll", func(x, y int, v goja.Value) goja.Value {
		r.pointer(target(), "scroll", []image.Point{{x, y}}, opts(v))
		return goja.Undefined()
	})
	_ = o.Set("type", func(text string, v goja.Value) goja.Value {
		r.keys(target(), "type", len([]rune(text)), opts(v).Delivery, func(in input.Input) error { return in.Type(text) })
		return goja.Undefined()
	})
	_ = o.Set("press", func(v goja.Value) goja.Value {
		var names []string
		if s, ok := v.Export().(string); ok {
			names = []string{s}
		} else {
			r.options(v, &names)
		}
		chords := make([]keys.Chord, len(names))
		for i, n := range names {
			c, err := keys.ParseChord(n)
			if err != nil {
				r.throw(fail(InvalidKey, "%v", err))
			}
			chords[i] = c
		}
		r.keys(target(), "press_keys", 0, "", func(in input.Input) error {
			for _, c := range chords {
				if err := in.Press(c); err != nil {
					return err
				}
			}
			return nil
		})
		return goja.Undefined()
	})
}

// screenshot grabs target, measured by the broker first (the grant must
// allow pixels, and every refusal runs again), and keeps its frame. Only
// the granted window's own visible pixels are kept: the rest of the
// desktop, and windows in front of it, are blanked.
func (r *Runtime) screenshot(target string) Shot {
	if target != desktopTarget {
		r.bind(target)
	}
	if r.plat.Screen == nil {
		r.throw(fail(CaptureFailed, "no screen capture on this OS"))
	}
	basis, w, err := r.broker.Measure(r.run.ctx, r.grantID, true)
	r.must(err)
	ts := r.targets()
	img, err := r.plat.Screen.Grab()
	if err != nil {
		r.throw(fail(CaptureFailed, "grab the screen: %v", err))
	}
	keep := w.Bounds.Intersect(img.Bounds())
	if keep.Empty() {
		r.throw(fail(CaptureFailed, "window %s is off screen", w.ID))
	}
	area := img.Bounds()
	if target != desktopTarget {
		area = keep
	}
	out := image.NewRGBA(image.Rectangle{Max: area.Size()})
	draw.Draw(out, out.Bounds(), image.Black, image.Point{}, draw.Src)
	draw.Draw(out, keep.Sub(area.Min), img, keep.Min, draw.Src)
	for _, t := range ts {
		if t.ID == w.ID {
			break
		}
		// A window in front of the granted one is not the grant's to show.
		if over := t.Bounds.Intersect(keep); !over.Empty() {
			draw.Draw(out, over.Sub(area.Min), image.Black, image.Point{}, draw.Src)
		}
	}
	png, err := screen.Encode(out)
	if err != nil {
		r.throw(fail(CaptureFailed, "encode: %v", err))
	}
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		r.throw(fail(CaptureFailed, "screenshot folder: %v", err))
	}
	r.shots++
	path := filepath.Join(r.dir, fmt.Sprintf("shot-%d.png", r.shots))
	if err := os.WriteFile(path, png, 0o600); err != nil {
		r.throw(fail(CaptureFailed, "write screenshot: %v", err))
	}
	r.frames[target] = frame{basis: basis, origin: area.Min, size: area.Size()}
	shot := Shot{Path: path, Width: area.Dx(), Height: area.Dy(), Target: target}
	r.run.res.Screenshots = append(r.run.res.Screenshots, shot)
	return shot
}

// pointer sends kind at pts, given in target's latest frame: no frame, a
// point outside it, or a window that moved, resized or was rebound since
// throw InvalidCoordinateFrame; the broker checks the basis right before
// the input, and the point must not be covered by another window.
func (r *Runtime) pointer(target, kind string, pts []image.Point, o pointerOpts) {
	r.writable(kind + "()")
	fr, ok := r.frames[target]
	if !ok {
		r.throw(fail(InvalidCoordinateFrame, "no screenshot of %s yet: coordinates belong to the latest screenshot of the same target; take one first", target))
	}
	for _, p := range pts {
		if !p.In(image.Rectangle{Max: fr.size}) {
			r.throw(fail(InvalidCoordinateFrame, "(%d, %d) is outside the %dx%d screenshot of %s", p.X, p.Y, fr.size.X, fr.size.Y, target))
		}
	}
	if len(o.Modifiers) > 0 {
		r.throw(fail(InvalidKey, "modifiers held during pointer input are not supported yet"))
	}
	button := map[string]int{"": 1, "left": 1, "middle": 2, "right": 3}[o.Button]
	if button == 0 {
		r.throw(fail(InvalidTarget, "button %q: left, middle or right", o.Button))
	}
	in := r.plat.Input
	if in == nil {
		r.throw(fail(InputFailed, "no input on this OS"))
	}
	mouse, fine := in.(input.Mouse)
	if !fine && kind != "click" && kind != "double_click" {
		r.throw(fail(InputFailed, "%s is not available on this OS's input", kind))
	}
	g := r.grant()
	if target != desktopTarget && g.Target.ID != target {
		r.throw(fail(InvalidCoordinateFrame, "the grant is bound to window %s since that screenshot: take another", g.Target.ID))
	}
	screenPts := make([]image.Point, len(pts))
	for i, p := range pts {
		screenPts[i] = fr.origin.Add(p)
		r.uncovered(g.Target, screenPts[i], o.Delivery)
	}
	rel := screenPts[0].Sub(fr.basis.Bounds.Min)
	w, err := r.broker.Authorize(r.run.ctx, r.grantID, computer.Action{Kind: kind, Point: &rel, Basis: &fr.basis})
	if err != nil {
		r.throw(fromBroker(err, true))
	}
	for _, sp := range screenPts[1:] {
		if !sp.In(w.Bounds) {
			r.throw(fail(InvalidCoordinateFrame, "a %s point leaves the granted window", kind))
		}
	}
	if err := send(in, mouse, kind, button, max(o.Count, 1), screenPts, o); err != nil {
		r.throw(fail(InputFailed, "%s: %v", kind, err))
	}
}

func send(in input.Input, mouse input.Mouse, kind string, button, count int, pts []image.Point, o pointerOpts) error {
	p := pts[0]
	switch kind {
	case "click", "double_click":
		for range count {
			if err := in.Click(p.X, p.Y, button); err != nil {
				return err
			}
		}
		return nil
	case "move":
		return mouse.Move(p.X, p.Y)
	case "scroll":
		if err := mouse.Move(p.X, p.Y); err != nil {
			return err
		}
		return mouse.Scroll(o.DX, o.DY)
	case "drag":
		if err := mouse.Move(p.X, p.Y); err != nil {
			return err
		}
		if err := mouse.Button(button, true); err != nil {
			return err
		}
		for _, q := range pts[1:] {
			if err := mouse.Move(q.X, q.Y); err != nil {
				_ = mouse.Button(button, false)
				return err
			}
		}
		return mouse.Button(button, false)
	}
	return fmt.Errorf("unknown pointer input %q", kind)
}

// uncovered throws unless sp reaches the bound window: a window in front
// covering it would take the input. With delivery "foreground" the bound
// window is raised first.
func (r *Runtime) uncovered(bound computer.Window, sp image.Point, delivery string) {
	covered := func() string {
		for _, t := range r.targets() {
			if t.ID == bound.ID {
				return ""
			}
			if sp.In(t.Bounds) {
				return t.App + " " + quote(t.Title)
			}
		}
		return ""
	}
	by := covered()
	if by == "" {
		return
	}
	if delivery != "foreground" {
		r.throw(fail(BackgroundUnavailable, "(%d, %d) is covered by %s; this OS's input lands on what is on top: pass {delivery: \"foreground\"} to raise the granted window first", sp.X, sp.Y, by))
	}
	r.raise(bound)
	if by := covered(); by != "" {
		r.throw(fail(BackgroundUnavailable, "(%d, %d) is still covered by %s after raising the granted window", sp.X, sp.Y, by))
	}
}

// raise brings the granted window w to the front: input like any other,
// so the broker authorizes it (and spends the budget) first.
func (r *Runtime) raise(w computer.Window) {
	if r.plat.Input == nil {
		r.throw(fail(InputFailed, "no input on this OS"))
	}
	if _, err := r.broker.Authorize(r.run.ctx, r.grantID, computer.Action{Kind: "raise", Element: true}); err != nil {
		r.throw(fromBroker(err, false))
	}
	if err := r.plat.Input.Activate(w.Title); err != nil {
		r.throw(fail(InputFailed, "raise %s: %v", w.ID, err))
	}
}

// keys sends keyboard input to the bound window (rebinding to target when
// it names another), which must have the focus right before the input.
func (r *Runtime) keys(target, kind string, textLen int, delivery string, send func(input.Input) error) {
	r.writable(kind + "()")
	if r.plat.Input == nil {
		r.throw(fail(InputFailed, "no input on this OS"))
	}
	w := r.grant().Target
	if target != desktopTarget {
		w = r.bind(target)
	}
	if delivery == "foreground" {
		focused := false
		for _, t := range r.targets() {
			focused = focused || t.ID == w.ID && t.Focused
		}
		if !focused {
			r.raise(w)
		}
	}
	if _, err := r.broker.Authorize(r.run.ctx, r.grantID, computer.Action{Kind: kind, Keyboard: true, TextLen: textLen}); err != nil {
		r.throw(fromBroker(err, false))
	}
	if err := send(r.plat.Input); err != nil {
		r.throw(fail(InputFailed, "%s: %v", kind, err))
	}
}

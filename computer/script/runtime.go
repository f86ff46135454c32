// Package script is `reprise computer run`: a persistent JavaScript runtime
// over the desktop, as the scriptable-computer design lays it out
// (desktop.windows, screenshot, click, type, win.ax/find/ref, the
// clipboard, wait, assert), with every capture and every input going
// through the active scope grant (package computer): no grant, no run.
//
// The engine is goja: pure Go (reprise stays CGO_ENABLED=0 and
// cross-builds for every OS), ES2020 with async/await, interruptible for
// the run budget, and kept up by a project many tools depend on (k6).
// V8 bindings need cgo; otto stops at ES5.
package script

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/ops"
)

// Options are one run's.
type Options struct {
	// ReadOnly lets screenshots, listings, AX reads and clipboard reads
	// through; input, AX mutation, raising windows and clipboard writes
	// throw.
	ReadOnly bool
	// Timeout is the run's budget, clamped to [api.ScriptMinTimeout,
	// api.ScriptMaxTimeout]; 0 is api.ScriptDefaultTimeout.
	Timeout time.Duration
	// MemoryLimit bounds the daemon's live heap, over what it was when the
	// runtime began, while the run goes on (heapGauge says how it is
	// charged); 0 is DefaultMemoryLimit, less is raised to MinMemoryLimit.
	// Past it the run is interrupted (MemoryLimit) and the runtime reset.
	MemoryLimit int64
}

// Shot is a screenshot a run took.
type Shot struct {
	Path   string `json:"path"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	Target string `json:"target"` // a window id, or "desktop"
}

// Result is what a run gave back: what it printed, the screenshots it
// took and its return value (JSON), in order.
type Result struct {
	Output      []string `json:"output,omitempty"`
	Screenshots []Shot   `json:"screenshots,omitempty"`
	Return      string   `json:"return,omitempty"`
	ReadOnly    bool     `json:"read_only"`
}

// Runtime is one persistent runtime: globals, screenshot frames and AX
// refs survive from one run to the next while the grant it was made for
// lives. It runs one script at a time: a run asked for while another goes
// on is refused at once (Busy), never queued behind it, so no caller
// waits on a script that spins.
type Runtime struct {
	broker  *computer.Broker
	grantID string
	plat    Platform
	dir     string // where screenshots are written
	base    uint64 // the daemon's live heap when the runtime began

	mu      sync.Mutex
	running time.Time // when the run in progress began; zero: none

	// The rest is touched only by the run in progress.
	vm     *goja.Runtime
	frames map[string]frame
	ax     refs
	shots  int
	run    *run // the run in progress
}

// New returns a runtime acting through grant grantID of b on plat;
// screenshots go to dir. It measures the daemon's heap once, after a
// collection: the base its runs' memory is charged over.
func New(b *computer.Broker, grantID string, plat Platform, dir string) *Runtime {
	r := &Runtime{broker: b, grantID: grantID, plat: plat, dir: dir, frames: map[string]frame{}, ax: newRefs()}
	r.newVM()
	r.base = settledHeap()
	return r
}

// GrantID is the grant the runtime acts through.
func (r *Runtime) GrantID() string { return r.grantID }

// run is what one run holds: its context, its policy and its output.
type run struct {
	ctx      context.Context
	readOnly bool
	res      Result
	// maxLen bounds what one builtin call may make or walk (guard.go).
	maxLen int64
}

// Run executes code with top-level await. A failure the script did not
// catch comes back as *Error; so does a run refused because another is in
// progress (Busy).
func (r *Runtime) Run(ctx context.Context, code string, opts Options) (Result, error) {
	if since, ok := r.acquire(); !ok {
		return Result{}, fail(Busy, "another run has been in progress on grant %s for %s; wait for its answer, or end it with `reprise stop`",
			r.grantID, time.Since(since).Round(time.Millisecond))
	}
	defer r.release()
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = api.ScriptDefaultTimeout
	}
	timeout = min(max(timeout, api.ScriptMinTimeout), api.ScriptMaxTimeout)
	limit := opts.MemoryLimit
	if limit == 0 {
		limit = DefaultMemoryLimit
	}
	limit = max(limit, MinMemoryLimit)
	done, err := r.broker.Done(r.grantID)
	if err != nil {
		return Result{}, fromBroker(err, false)
	}
	// The run's budget and its memory interrupt the engine wherever it
	// is. The grant ending (Stop, revoke, expiry, its window closing, its
	// budget spent) fails every host call from then on and ends waits,
	// and lets an action that already went through finish its statement
	// (a run is not reported aborted after its last action succeeded);
	// a script still running stopGrace later is interrupted.
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fail(Timeout, "computer code execution timed out after %dms", timeout.Milliseconds()))
	defer cancel()
	hostCtx, hostCancel := context.WithCancel(ctx)
	defer hostCancel()
	r.run = &run{ctx: hostCtx, readOnly: opts.ReadOnly, res: Result{ReadOnly: opts.ReadOnly}, maxLen: limit / bytesPerElement}
	defer func() { r.run = nil }()
	r.vm.ClearInterrupt()
	w := r.watch(ctx, hostCancel, done, newHeapGauge(r.base, uint64(limit)))
	v, err := r.eval(code)
	why := w.stop()
	r.vm.ClearInterrupt()
	res := r.run.res
	if why != nil && why.Code == MemoryLimit {
		r.reset()
		return res, why
	}
	if err != nil {
		if why != nil {
			return res, why
		}
		select {
		case <-done:
			return res, grantEnded()
		default:
		}
		return res, err
	}
	if v != nil && !goja.IsUndefined(v) {
		res.Return = r.stringify(v)
	}
	return res, nil
}

// acquire takes the runtime for a run, or says since when another holds it.
func (r *Runtime) acquire() (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.running.IsZero() {
		return r.running, false
	}
	r.running = time.Now()
	return r.running, true
}

func (r *Runtime) release() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running = time.Time{}
}

// eval runs code as a script when it is one (its top-level declarations
// then persist to the next run), else as the body of an async function,
// which takes top-level await and return.
func (r *Runtime) eval(code string) (goja.Value, error) {
	if prog, err := goja.Compile("run.js", code, false); err == nil {
		v, err := r.vm.RunProgram(prog)
		if err != nil {
			return nil, r.thrown(err)
		}
		return r.settle(v)
	}
	v, err := r.vm.RunString("(async () => {\n" + code + "\n})()")
	if err != nil {
		return nil, r.thrown(err)
	}
	return r.settle(v)
}

// settle unwraps a promise the run returned; goja has drained its job
// queue by now, so a pending one can never settle.
func (r *Runtime) settle(v goja.Value) (goja.Value, error) {
	p, ok := v.Export().(*goja.Promise)
	if !ok {
		return v, nil
	}
	switch p.State() {
	case goja.PromiseStateFulfilled:
		return p.Result(), nil
	case goja.PromiseStateRejected:
		return nil, r.errorOf(p.Result())
	default:
		return nil, fail(Internal, "the script awaits a promise nothing will settle")
	}
}

// thrown is the error a script's uncaught exception stands for.
func (r *Runtime) thrown(err error) error {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return r.errorOf(ex.Value())
	}
	var intr *goja.InterruptedError
	if errors.As(err, &intr) {
		if e, ok := intr.Value().(error); ok {
			return e
		}
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return fail(Internal, "uncaught RangeError: maximum call stack size exceeded (%d calls deep)", maxCallDepth)
	}
	var se *goja.CompilerSyntaxError
	if errors.As(err, &se) {
		return fail(Internal, "syntax error: %v", se)
	}
	return fail(Internal, "%v", err)
}

// errorOf reads a thrown value: ours carry .code (and .grantCode).
func (r *Runtime) errorOf(v goja.Value) error {
	if o, ok := v.(*goja.Object); ok {
		str := func(k string) string {
			if v := o.Get(k); v != nil {
				s, _ := v.Export().(string)
				return s
			}
			return ""
		}
		code, grant := str("code"), str("grantCode")
		msg := o.Get("message")
		if code != "" && msg != nil {
			m := strings.TrimPrefix(msg.String(), code+": ")
			if grant != "" {
				m = strings.TrimSuffix(m, " ("+grant+")")
			}
			return &Error{Code: code, GrantCode: grant, Message: m}
		}
		if msg != nil && !goja.IsUndefined(msg) {
			name := str("name")
			if name == "SyntaxError" {
				return fail(Internal, "syntax error: %s", msg)
			}
			return fail(Internal, "uncaught %s: %s", name, msg)
		}
	}
	return fail(Internal, "uncaught %s", v)
}

// throw raises err in the script as an Error with .code.
func (r *Runtime) throw(err error) {
	e := fromBroker(err, false)
	obj, jerr := r.vm.New(r.vm.Get("Error"), r.vm.ToValue(e.Error()))
	if jerr != nil {
		panic(r.vm.NewGoError(err))
	}
	_ = obj.Set("code", e.Code)
	_ = obj.Set("name", e.Code)
	if e.GrantCode != "" {
		_ = obj.Set("grantCode", e.GrantCode)
	}
	panic(obj)
}

// must throws when err is not nil.
func (r *Runtime) must(err error) {
	if err != nil {
		r.throw(err)
	}
}

// writable throws in a read-only run.
func (r *Runtime) writable(what string) {
	if r.run.readOnly {
		r.throw(fail(PermissionDenied, "%s is not allowed in a read-only run", what))
	}
}

// stringify is a return value as the caller sees it: a string as is,
// anything else as JSON.
func (r *Runtime) stringify(v goja.Value) string {
	if s, ok := v.Export().(string); ok {
		return s
	}
	b, err := json.Marshal(v.Export())
	if err != nil {
		return v.String()
	}
	return string(b)
}

// value converts a Go value to the script's by way of JSON, so structs
// reach the script with their json names.
func (r *Runtime) value(v any) goja.Value {
	b, err := json.Marshal(v)
	if err != nil {
		r.throw(fail(Internal, "encode %T: %v", v, err))
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return r.vm.ToValue(out)
}

// options reads an optional options object into dst by way of JSON.
func (r *Runtime) options(v goja.Value, dst any) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return
	}
	b, err := json.Marshal(v.Export())
	if err == nil {
		err = json.Unmarshal(b, dst)
	}
	if err != nil {
		r.throw(fail(InvalidTarget, "options: %v", err))
	}
}

// install puts the globals every run shares: desktop, wait, assert, print.
// Nothing of the daemon's environment is among them: the daemon holds the
// person's API keys and cloud credentials, and a script is a program the
// person let operate one window, not one that may read them.
func (r *Runtime) install() {
	vm := r.vm
	print := func(call goja.FunctionCall) goja.Value {
		parts := make([]string, len(call.Arguments))
		for i, a := range call.Arguments {
			parts[i] = r.stringify(a)
		}
		r.run.res.Output = append(r.run.res.Output, strings.Join(parts, " "))
		return goja.Undefined()
	}
	console := vm.NewObject()
	_ = console.Set("log", print)
	_ = vm.Set("console", console)
	_ = vm.Set("print", print)
	_ = vm.Set("display", print)
	_ = vm.Set("wait", r.wait)
	_ = vm.Set("assert", func(call goja.FunctionCall) goja.Value {
		if !call.Argument(0).ToBoolean() {
			msg := "assertion failed"
			if m := call.Argument(1); !goja.IsUndefined(m) {
				msg = "assertion failed: " + m.String()
			}
			obj, _ := vm.New(vm.Get("Error"), vm.ToValue(msg))
			_ = obj.Set("name", "AssertionError")
			panic(obj)
		}
		return goja.Undefined()
	})
	_ = vm.Set("desktop", r.desktopObject())
}

// wait(ms) sleeps; wait(predicate, {timeout, interval}) polls until the
// predicate is truthy and returns its value, or throws Timeout.
func (r *Runtime) wait(call goja.FunctionCall) goja.Value {
	ctx := r.run.ctx
	sleep := func(d time.Duration) {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			r.throw(context.Cause(ctx))
		}
	}
	pred, ok := goja.AssertFunction(call.Argument(0))
	if !ok {
		sleep(time.Duration(call.Argument(0).ToInteger()) * time.Millisecond)
		return goja.Undefined()
	}
	var o struct {
		Timeout  int `json:"timeout"`
		Interval int `json:"interval"`
	}
	o.Timeout, o.Interval = 10000, 100
	r.options(call.Argument(1), &o)
	deadline := time.Now().Add(time.Duration(o.Timeout) * time.Millisecond)
	for {
		v, err := pred(goja.Undefined())
		if err != nil {
			panic(err)
		}
		if v.ToBoolean() {
			return v
		}
		if time.Now().After(deadline) {
			r.throw(fail(Timeout, "wait: the condition was not met within %dms", o.Timeout))
		}
		sleep(time.Duration(max(o.Interval, 10)) * time.Millisecond)
	}
}

// grant is the grant as it is now; a run without it throws.
func (r *Runtime) grant() computer.Grant {
	g, ok := r.broker.Describe()
	if !ok || g.ID != r.grantID {
		r.throw(fromBroker(ops.Errorf(ops.CodeComputerNoGrant, "grant %s is not active: take a grant first", r.grantID), false))
	}
	return g
}

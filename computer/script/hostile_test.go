package script

import (
	"context"
	"encoding/json"
	"errors"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/computer"
)

// TestScriptsHoldAgainstAHostileScript: what a script may not do to the
// daemon that runs it: read the daemon's environment, hold its memory,
// keep a core after Stop or after its caller left, keep other callers from
// an answer, or take the daemon down with one call the engine cannot
// interrupt. The rules are in docs/desktop.md, "Scripting the desktop".
func TestScriptsHoldAgainstAHostileScript(t *testing.T) {
	for _, c := range []struct {
		name string
		test func(t *testing.T, f *fixture)
	}{
		{"no global reads the daemon's environment", noEnvironment},
		{"a memory bomb is interrupted and its memory given back", memoryBomb},
		{"Stop interrupts a loop at once, and another run is answered meanwhile", stopALoop},
		{"the caller going away interrupts a loop", callerGoesAway},
		{"one call cannot allocate or walk past the limit", oneCall},
	} {
		t.Run(c.name, func(t *testing.T) { c.test(t, newFixture(t, computer.GrantRequest{})) })
	}
}

// noEnvironment walks everything reachable from the global object,
// without calling it, and calls whatever reads an environment elsewhere:
// the daemon's secrets appear nowhere.
func noEnvironment(t *testing.T, f *fixture) {
	const secret = "sk-canary-0d4f7a19c2"
	t.Setenv("OPENAI_API_KEY", secret)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	res, err := f.r.Run(context.Background(), `
		const names = ["env", "getenv", "process", "require", "os", "Deno", "Bun", "std", "module", "read", "tool"];
		const types = {};
		for (const n of names) types[n] = typeof globalThis[n];
		const calls = [];
		for (const f of [() => env("OPENAI_API_KEY"), () => getenv("OPENAI_API_KEY"), () => process.env.OPENAI_API_KEY,
		                 () => require("os").getenv("OPENAI_API_KEY"), () => Deno.env.get("OPENAI_API_KEY")]) {
			try { calls.push(String(f())) } catch (e) { calls.push(e.name) }
		}
		const seen = new Set(), queue = [globalThis], strings = [];
		while (queue.length) {
			const o = queue.pop();
			if (seen.has(o)) continue;
			seen.add(o);
			for (const k of Reflect.ownKeys(o)) {
				const d = Object.getOwnPropertyDescriptor(o, k);
				if (typeof k === "string") strings.push(k);
				for (const v of [d.value, d.get, d.set]) {
					if (typeof v === "string") strings.push(v);
					else if (v !== null && (typeof v === "object" || typeof v === "function")) queue.push(v);
				}
			}
			const p = Object.getPrototypeOf(o);
			if (p) queue.push(p);
		}
		return {types, calls, strings, objects: seen.size};`, Options{ReadOnly: true, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatalf("the probe failed: %v", err)
	}
	if strings.Contains(res.Return, secret) || strings.Contains(strings.Join(res.Output, "\n"), secret) {
		t.Fatalf("a script read OPENAI_API_KEY from the daemon's environment: %s", res.Return)
	}
	var got struct {
		Types   map[string]string
		Calls   []string
		Strings []string
		Objects int
	}
	if err := json.Unmarshal([]byte(res.Return), &got); err != nil {
		t.Fatal(err)
	}
	for name, typ := range got.Types {
		if typ != "undefined" {
			t.Errorf("typeof %s = %s; want undefined", name, typ)
		}
	}
	for _, c := range got.Calls {
		if c != "ReferenceError" {
			t.Errorf("a call reading the environment gave %q; want ReferenceError", c)
		}
	}
	if got.Objects < 100 || len(got.Strings) < 500 {
		t.Fatalf("the walk reached %d objects and %d strings: it did not walk the globals", got.Objects, len(got.Strings))
	}
	t.Logf("walked %d objects and %d strings from globalThis; no secret", got.Objects, len(got.Strings))
}

// heapNow is the heap's objects now, garbage included.
func heapNow() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// memoryBomb: the probe's bomb under a 64 MiB limit is interrupted,
// reported, and the heap never holds much more than the limit; the
// runtime is reset, so what the bomb held is given back.
func memoryBomb(t *testing.T, f *fixture) {
	const limit = 64 << 20
	const slack = 64 << 20
	// Sample the heap while the bomb runs; past a GiB the guard has
	// failed, and Stop keeps the machine from paying for it.
	var peak atomic.Uint64
	quit, sampled := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
			}
			h := heapNow()
			if h > peak.Load() {
				peak.Store(h)
			}
			if h > f.r.base+1<<30 {
				f.b.Stop(context.Background())
			}
		}
	}()
	start := time.Now()
	_, err := f.r.Run(context.Background(), `let a = []; for (;;) a.push("x".repeat(1 << 20))`, Options{MemoryLimit: limit, Timeout: 60 * time.Second})
	took := time.Since(start)
	close(quit)
	<-sampled
	var e *Error
	if !errors.As(err, &e) || e.Code != MemoryLimit {
		t.Fatalf("a memory bomb: %v; want MemoryLimit", err)
	}
	if !strings.Contains(e.Message, "64 MiB") || !strings.Contains(e.Message, "reset") {
		t.Errorf("the report %q does not say the limit and that the runtime was reset", e.Message)
	}
	over := int64(peak.Load()) - int64(f.r.base)
	t.Logf("interrupted after %v; the heap peaked %d MiB over the runtime's base (limit %d MiB)", took.Round(time.Millisecond), over>>20, limit>>20)
	if over > limit+slack {
		t.Errorf("the heap reached %d MiB over its base; want at most the limit %d MiB and %d MiB of slack", over>>20, limit>>20, slack>>20)
	}
	if got := f.run(t, `typeof a`); got != "undefined" {
		t.Errorf("after the interrupt the bomb's array is still a global (%s): the runtime was not reset", got)
	}
	if held := int64(settledHeap()) - int64(f.r.base); held > 16<<20 {
		t.Errorf("after the interrupt the daemon still holds %d MiB over the base", held>>20)
	}
}

// spinning starts code (which reads the clipboard first) on a runner over
// the fixture and returns once it is past the read, with the channel its
// reply arrives on.
func spinning(t *testing.T, f *fixture, rn *Runner, ctx context.Context, code string) <-chan RunReply {
	t.Helper()
	f.clip.read = make(chan struct{}, 1)
	out := make(chan RunReply, 1)
	go func() {
		reply, err := rn.Run(ctx, f.b, api.ScriptRunRequest{Code: code, ReadOnly: true, Timeout: 60 * time.Second})
		if err != nil {
			reply.Error = fail(Internal, "refused: %v", err)
		}
		out <- reply
	}()
	select {
	case <-f.clip.read:
	case r := <-out:
		t.Fatalf("the run ended before it spun: %+v", r.Error)
	}
	return out
}

// answer waits for a run's reply, failing after a bound far past the
// requirement; the time it took is what the caller measures.
func answer(t *testing.T, out <-chan RunReply) RunReply {
	t.Helper()
	select {
	case r := <-out:
		return r
	case <-time.After(30 * time.Second):
		t.Fatal("no answer in 30 s")
		return RunReply{}
	}
}

// stopALoop: `while (true) {}` makes no host call, so only interrupting
// the engine ends it; another run asked for while it spins is answered at
// once (Busy) rather than queued behind it.
func stopALoop(t *testing.T, f *fixture) {
	rn := &Runner{Open: func() Platform { return f.plat }, Dir: t.TempDir()}
	out := spinning(t, f, rn, context.Background(), `desktop.clipboard.read(); while (true) {}`)

	asked := time.Now()
	second, err := rn.Run(context.Background(), f.b, api.ScriptRunRequest{Code: `1 + 1`, ReadOnly: true})
	busy := time.Since(asked)
	if err != nil || second.Error == nil || second.Error.Code != Busy || !strings.Contains(second.Error.Message, "reprise stop") {
		t.Fatalf("a second run while one spins: %+v, %v; want Busy saying how to end the first", second.Error, err)
	}
	if busy > time.Second {
		t.Errorf("the second run was answered after %v; want at once", busy)
	}

	stopped := time.Now()
	f.b.Stop(context.Background())
	first := answer(t, out)
	took := time.Since(stopped)
	if first.Error == nil || first.Error.Code != Closed {
		t.Fatalf("a loop when the person pressed Stop: %+v; want Closed", first.Error)
	}
	t.Logf("the second run was answered in %v; Stop ended the loop in %v", busy.Round(time.Microsecond), took.Round(time.Millisecond))
	if took > time.Second {
		t.Errorf("Stop ended the loop after %v; want within a second", took)
	}
}

// callerGoesAway: a caller's cancelled request interrupts the engine too.
func callerGoesAway(t *testing.T, f *fixture) {
	rn := &Runner{Open: func() Platform { return f.plat }, Dir: t.TempDir()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := spinning(t, f, rn, ctx, `desktop.clipboard.read(); for (;;) { try { while (true) {} } catch (e) {} }`)
	left := time.Now()
	cancel()
	r := answer(t, out)
	took := time.Since(left)
	if r.Error == nil || r.Error.Code != Closed {
		t.Fatalf("a loop whose caller left: %+v; want Closed", r.Error)
	}
	if took > time.Second {
		t.Errorf("the loop ran %v after its caller left; want within a second", took)
	}
	// The runtime is free again at once.
	if got := f.run(t, `"free"`); got != "free" {
		t.Fatalf("the next run: %q", got)
	}
}

// oneCall: builtins the engine cannot interrupt inside refuse sizes past
// the run's limit at once, however the size is dressed up; ordinary uses
// still work.
func oneCall(t *testing.T, f *fixture) {
	for _, code := range []string{
		`"x".repeat(2 ** 36)`, // one allocation: the Go runtime would die out of memory
		`"x".repeat({valueOf() { return 2 ** 36 }})`,
		`"".padStart(2 ** 36)`,
		`new ArrayBuffer(2 ** 36)`,
		`new Float64Array(2 ** 34)`,
		`new Uint8Array({length: 2 ** 34})`,
		`new (new Uint8Array(1).buffer.constructor)(2 ** 36)`, // the original, one property away
		`new Array(2 ** 32 - 1).forEach(x => x)`,              // a minute in Go, deaf to Stop
		`new Array(2 ** 32 - 1).join()`,
		`String(new Array(2 ** 32 - 1))`,
		`Array.prototype.fill.call({length: 2 ** 32 - 1}, 0)`,
		`Array.prototype.join.call({get length() { return 2 ** 32 - 1 }})`,
		`Array.prototype.join.call(new Proxy({}, {get: () => 2 ** 32 - 1}))`,
		`Array.from({length: 2 ** 32 - 1})`,
		`Math.max.apply(null, new Array(2 ** 32 - 1))`,
		`Reflect.apply(Math.max, null, {length: 2 ** 32 - 1})`,
		`let s = "x".repeat(1 << 20); while (s.length < 1 << 25) s += s; s.split("")`,
		`let t = "x".repeat(1 << 20); while (t.length < 1 << 25) t += t; /(?:)/[Symbol.split](t)`,
		`function f() { return f() } f()`,
	} {
		start := time.Now()
		e := f.fails(t, code, Options{Timeout: 20 * time.Second})
		took := time.Since(start)
		if e.Code != Internal || !strings.Contains(e.Message, "RangeError") {
			t.Errorf("%s: %v; want an uncaught RangeError", code, e)
		}
		if took > 5*time.Second {
			t.Errorf("%s was refused after %v; want at once", code, took)
		}
	}
	got := f.run(t, `[
		"ab".repeat(3), "7".padStart(3, "0"), [1, 2, 3].map(x => x * 2).join(","), Array.from("abc").length,
		Math.max.apply(null, [1, 5, 3]), "a-b".split("-").length, new ArrayBuffer(8).byteLength,
		Uint8Array.from([1, 2]).length, new Float64Array([1, 2, 3]).length, new Uint8Array(new ArrayBuffer(4), 1).length,
		new Uint8Array(2) instanceof Uint8Array, new Uint8Array(1).buffer instanceof ArrayBuffer,
		new Array(3).fill(0).length, Array.prototype.slice.call({length: 2, 0: "a", 1: "b"}).join(""),
		Reflect.construct(Date, [0]).getTime(), "x".replace("x", "y"), [..."hi"].length,
	]`)
	if want := `["ababab","007","2,4,6",3,5,2,8,2,3,3,true,true,3,"ab",0,"y",2]`; got != want {
		t.Errorf("ordinary uses under the guard: %s; want %s", got, want)
	}
}

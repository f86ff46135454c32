package browser

import (
	"context"
	"errors"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
)

// batchItem is one step of a batch as page.js's batch op reads it. Pick is
// the listed element Go matched the step's target to, -1 for none.
type batchItem struct {
	Pick      int          `json:"pick"`
	Group     bool         `json:"group"`
	Selectors []jsSelector `json:"selectors"`
	Action    string       `json:"action"`
	Value     string       `json:"value"`
	Kind      string       `json:"kind"`
	Expect    string       `json:"expect"`
	Known     []string     `json:"known"`
	Keys      bool         `json:"keys"`
	// Proof is what a candidate the selectors find must be, PickProof
	// what the picked element must be when the target proves nothing.
	Proof     proof  `json:"proof"`
	Keep      kept   `json:"keep"`
	PickProof *proof `json:"pickProof,omitempty"`
}

// batchResult is what the page did with one item: held or done (read back,
// or nothing to read back), or again (not found yet, or needing clicks or
// keys), failed (set, but the value did not hold) or stale (the element
// left the page once set), which the careful path then redoes alone.
type batchResult struct {
	Ready  bool   `json:"ready"`
	Counts []int  `json:"counts"`
	Hit    int    `json:"hit"`
	Via    string `json:"via"`
	Res    string `json:"res"`
}

// DoBatch runs a run of Batchable steps (fills and selects) with as few
// round trips as their checks allow: one listing to resolve every target,
// then one page call that finds, sets and reads back each field in turn.
// A step the page cannot finish that way (a list that opens on a click, a
// field whose value did not hold once set, say one whose script reformats
// each key) runs alone through Do, typed key by key; the batch then goes
// on from the next step. Outcomes are as Do's, one per step, up to the
// first that failed.
func (e *Executor) DoBatch(ctx context.Context, steps []replay.Step) ([]replay.Outcome, error) {
	outs := make([]replay.Outcome, 0, len(steps))
	for len(outs) < len(steps) {
		got, next, err := e.batch(ctx, steps[len(outs):])
		if err != nil {
			return outs, err
		}
		outs = append(outs, got...)
		next = next || len(got) == 0 // never loop on a batch that did nothing
		if !next || len(outs) == len(steps) {
			continue
		}
		out, err := e.Do(ctx, steps[len(outs)])
		if err != nil {
			return outs, err
		}
		outs = append(outs, out)
		if !out.OK {
			break
		}
	}
	return outs, nil
}

// batch runs steps in one page call, and returns the outcomes of those it
// finished; next says the step after them must run alone.
func (e *Executor) batch(ctx context.Context, steps []replay.Step) (outs []replay.Outcome, next bool, err error) {
	if e.tab.Err() != nil {
		return nil, false, ErrClosed
	}
	start := time.Now()
	cctx, stop := e.bind(ctx)
	defer stop()
	e.prevURL = e.nav.location()
	if err := e.waitLoaded(cctx, 10*time.Second); err != nil {
		return nil, false, err
	}
	picks, matched, err := e.resolveTargets(cctx, steps)
	if err != nil {
		return nil, true, e.broken(ctx, err)
	}
	items := make([]batchItem, len(steps))
	for i, st := range steps {
		items[i] = batchItem{Pick: picks[i], Group: st.Action == "select" || choiceRoles[st.Role],
			Selectors: jsSelectors(st.Selectors), Action: st.Action, Value: st.Value, Known: known(st.Options), Keys: st.Keys,
			Proof: proofOf(st), Keep: keepOf(st, st.Action == "select" || choiceRoles[st.Role])}
		if st.Target != nil {
			items[i].PickProof = targetProof(st, *st.Target)
		}
		if rb := st.ReadBack; rb != nil {
			items[i].Kind, items[i].Expect = rb.Kind, rb.Expect
		}
	}
	res, err := chromedp.Run(cctx, pageOp[[]batchResult](e.world, "batch", map[string]any{"items": items}))
	if err != nil {
		return nil, true, e.broken(ctx, err)
	}
	for i, r := range res {
		if r.Res != "held" && r.Res != "done" {
			return outs, true, nil
		}
		st := steps[i]
		out := replay.Outcome{OK: true, Selector: -1}
		if st.Target != nil {
			out.Tried = []replay.Attempt{targetAttempt(matched[i])}
		}
		if r.Via == "target" {
			out.Via = replay.ViaTarget
		} else {
			out.Tried = append(out.Tried, attempts(st.Selectors, r.Counts)...)
			out.Via, out.Selector = replay.ViaDOM, r.Hit
		}
		e.log.DebugContext(ctx, "step", keyRow, st.Row, keyStep, st.Index+1, keyAction, st.Action,
			keyVia, out.Via, keySelector, out.Selector, keyOK, true, keyMillis, time.Since(start).Milliseconds(), "batch", len(steps))
		outs = append(outs, out)
	}
	// Every item done, or the page stopped after one that changed its
	// structure: the rest go in a new batch.
	return outs, false, nil
}

// broken returns the browser's own error when it is gone, and nil when it
// answers: the page refused the batch, and the steps run alone.
func (e *Executor) broken(ctx context.Context, err error) error {
	if gerr := e.gone(ctx); gerr != nil {
		return gerr
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// resolveTargets matches every step's target on one listing of the page:
// picks[i] is the listed element step i's target names (-1 for none, or
// a step without a target), matched[i] how many elements it matched.
func (e *Executor) resolveTargets(ctx context.Context, steps []replay.Step) (picks, matched []int, err error) {
	picks, matched = make([]int, len(steps)), make([]int, len(steps))
	var targets []selector.Selector
	for i, st := range steps {
		picks[i] = -1
		if st.Target != nil {
			targets = append(targets, *st.Target)
		}
	}
	if len(targets) == 0 {
		return picks, matched, nil
	}
	r := readingFor(targets...)
	p, err := e.elements(ctx, MaxElements, r)
	if err != nil || !p.Ready {
		return picks, matched, err
	}
	for i, st := range steps {
		if st.Target == nil {
			continue
		}
		k, err := selector.Match(*st.Target, p.Tree)
		var m *selector.Miss
		switch {
		case err == nil:
			picks[i], matched[i] = k, 1
		case errors.As(err, &m) && m.Code == selector.CodeAmbiguous:
			matched[i] = len(m.Matches)
		}
	}
	return picks, matched, nil
}

// Package heal lets a model find a step's element when the page changed
// since the skill was built (a skill's or step's `ai: on_miss`), or every
// run (`ai: every_run`), on the selector model.
//
// The model is shown the page as an outline of elements (roles, names,
// ids; no field values, a row's values as their placeholders) and answers
// one move at a time: do the step on an element, click an element first,
// done, or ask. reprise itself does the step on the element the model
// chose, with the step's own value, read-back and success check, so a
// model never chooses what is typed and a row it healed is proved like
// any other. What the model chose is kept in a replay cache on this host,
// replayed without a model while it fits, and proposed as a new revision
// of the skill once the row went through.
//
// Whatever names the element (a model's answer, a cache entry, a pin), it
// is used only when the element fits the step (fit.go): the step's value
// never goes where it must not. The cache's entries are signed with a key
// of the data dir's own (seal.go): one edited on disk is never used.
package heal

import (
	"context"
	"log/slog"
	"slices"
	"sync"

	"github.com/reprise-dev/reprise/model"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// Screen is what a look at the page sees.
type Screen struct {
	URL, Title string
	Tree       selector.Tree
	// Facts are what the executor knows of Tree's elements beyond their
	// role and name, by index (see Fact); nil when it tells nothing.
	Facts []Fact
}

// Options configure an Executor.
type Options struct {
	Skill *skills.Skill
	// Model answers; nil for none (a step whose ai asks for one then
	// fails, naming it: run Validate first).
	Model model.Model
	// Look reads the page (or the step's window) the executor works on.
	Look func(ctx context.Context, st replay.Step) (Screen, error)
	// WatchesClicks says the executor watches what a click sends, as a
	// submit's (the browser): a click before a step runs as one, and one
	// that sent something stops the healing. Elsewhere (the desktop) a
	// click before a step is unproved: a healing that fails after one
	// leaves the row unknown.
	WatchesClicks bool
	// Cache is the skill's replay cache; nil for none.
	Cache *Cache
	// MaxTurns bounds the model's moves for one step; 0 means 8.
	MaxTurns int
	Logger   *slog.Logger
}

// Executor runs steps on an inner executor and lets the model find the
// element of a step the skill lets it (see the package comment).
type Executor struct {
	replay.Executor
	o Options

	mu     sync.Mutex
	healed map[int][]Change // by row: what went through, for a revision
}

// New wraps inner.
func New(inner replay.Executor, o Options) *Executor {
	if o.MaxTurns <= 0 {
		o.MaxTurns = 8
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Executor{Executor: inner, o: o, healed: map[int][]Change{}}
}

// Validate says whether the skill can run with the options: a step whose
// ai lets a model decide needs one.
func Validate(s *skills.Skill, m model.Model) error {
	if m != nil {
		return nil
	}
	return skills.NeedsModelError(s)
}

// Healed returns what a model changed for row's steps to go through.
func (e *Executor) Healed(row int) []Change {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.healed[row])
}

// DoBatch runs a batch on the inner executor, then heals the step it
// missed and runs the rest one by one. A batch with a step the model
// decides every run runs step by step.
func (e *Executor) DoBatch(ctx context.Context, steps []replay.Step) ([]replay.Outcome, error) {
	outs, err := e.doBatch(ctx, steps)
	if len(outs) > 0 {
		e.cacheNotes(ctx, &outs[0])
	}
	return outs, err
}

func (e *Executor) doBatch(ctx context.Context, steps []replay.Step) ([]replay.Outcome, error) {
	b, ok := e.Executor.(replay.Batcher)
	if !ok || slices.ContainsFunc(steps, func(st replay.Step) bool {
		return e.mode(st) == skills.AIEveryRun || len(st.Template.Recorded.Here()) > 0
	}) {
		return replay.DoEach(ctx, e, steps)
	}
	outs, err := b.DoBatch(ctx, steps)
	if err != nil || len(outs) == 0 {
		return outs, err
	}
	last := len(outs) - 1
	if outs[last].OK {
		return outs, nil
	}
	st := steps[last]
	if !outs[last].Missed || e.mode(st) == skills.AINever {
		return outs, nil
	}
	healed, err := e.heal(ctx, st, outs[last])
	if err != nil {
		return outs[:last], err
	}
	outs[last] = healed
	if !healed.OK {
		return outs, nil
	}
	rest, err := replay.DoEach(ctx, e, steps[last+1:])
	return append(outs, rest...), err
}

// Do runs st: by its pinned steps for this system if it has some, else
// as recorded; and with the model where the skill lets it.
func (e *Executor) Do(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	out, err := e.do(ctx, st)
	if err == nil {
		e.cacheNotes(ctx, &out)
	}
	return out, err
}

// cacheNotes adds to out, once a run, a note for each entry of the replay
// cache that was ignored when it was read (seal.go), so that the run's
// report says so, and logs it.
func (e *Executor) cacheNotes(ctx context.Context, out *replay.Outcome) {
	if e.o.Cache == nil {
		return
	}
	for _, n := range e.o.Cache.TakeNotes() {
		e.o.Logger.WarnContext(ctx, "replay cache entry ignored", "note", n)
		out.Notes = append(out.Notes, n)
	}
}

func (e *Executor) do(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	if pins := st.Template.Recorded.Here(); len(pins) > 0 && !st.Secret {
		out, err := e.runPins(ctx, st, pins)
		if err != nil || out.OK || !out.Missed || e.mode(st) == skills.AINever {
			return out, err
		}
		return e.heal(ctx, st, out)
	}
	switch e.mode(st) {
	case skills.AIEveryRun:
		return e.heal(ctx, st, replay.Outcome{Error: "ai: every_run: the model chooses the element every run"})
	case skills.AIOnMiss:
		out, err := e.Executor.Do(ctx, st)
		if err != nil || out.OK || !out.Missed {
			return out, err
		}
		return e.heal(ctx, st, out)
	}
	return e.Executor.Do(ctx, st)
}

// mode is how much the model decides for st; never for a step it cannot
// help (a navigate, a secret).
func (e *Executor) mode(st replay.Step) string {
	if !skills.Healable(st.Step) {
		return skills.AINever
	}
	return e.o.Skill.AIFor(st.Index)
}

var _ replay.Batcher = (*Executor)(nil)

// TypesSecrets says whether the inner executor types a secret step's
// answer (replay.SecretTyper).
func (e *Executor) TypesSecrets() bool {
	t, ok := e.Executor.(replay.SecretTyper)
	return ok && t.TypesSecrets()
}

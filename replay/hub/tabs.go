package hub

import (
	"context"
	"errors"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// Tabs are a worker's executors: Slots rows at a time, each slot's
// executor for a skill's rows made by For (a tab of a browser started
// with the skill's browser section).
type Tabs interface {
	Slots() int
	// For is slot's executor for sk's rows; ErrNotHere when this worker
	// lacks what sk needs (the profile it names, a desktop), ErrNotNow
	// when another slot files it or it cannot yet: the row goes back to
	// the queue. Any other error stops the slot, as a broken executor
	// does.
	For(ctx context.Context, slot int, sk *skills.Skill) (replay.Executor, error)
}

// ErrNotHere says a worker lacks what a skill needs to file its rows;
// ErrNotNow that it files them, in another slot or later (its profile is
// open for another skill): the row goes back to the queue either way.
var (
	ErrNotHere = errors.New("this worker cannot file the skill's rows")
	ErrNotNow  = errors.New("this worker files the skill's rows, not in this slot now")
)

// Fixed are the same executors for every skill, one a slot.
type Fixed []replay.Executor

// Slots is how many executors there are.
func (f Fixed) Slots() int { return len(f) }

// For is slot's executor, whatever the skill.
func (f Fixed) For(_ context.Context, slot int, _ *skills.Skill) (replay.Executor, error) {
	return f[slot], nil
}

// Package progress shows the person how a replay run is going (SPEC 11):
// rows done, failed and skipped of the total, the rate and an estimate of
// the time left. On a terminal it is one line redrawn in place; elsewhere
// (a log file, CI) it is a plain line now and then.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Pacing of the output.
const (
	redrawEvery = 100 * time.Millisecond // terminal: at most ten redraws a second
	plainEvery  = 5 * time.Second        // plain: a line at least this often while rows finish...
	plainStep   = 10                     // ...and one each time another this many percent is done
	barWidth    = 20
)

// Bar is the progress of one run. Its methods are safe for concurrent use.
type Bar struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	tty   bool
	now   func() time.Time
	after func(time.Duration, func()) *time.Timer

	start                          time.Time
	done, failed, skipped, unknown int
	drawn                          time.Time   // when the last line was written
	drawnPct                       int         // plain: the percent step last written
	width                          int         // tty: the length of the line on screen
	pending                        *time.Timer // tty: a redraw held back by the rate limit
	finished                       bool
	at                             []position // each worker's row and step
}

// position is where one worker is: its row (0: none) and the row's step.
type position struct{ row, step, steps int }

// New returns a bar for a run of total rows written to w; isTTY selects the
// redrawn line (see IsTerminal). A total of 0 or less means unknown: no bar
// and no estimate.
func New(w io.Writer, total int, isTTY bool) *Bar {
	return newBar(w, total, isTTY, time.Now, time.AfterFunc)
}

func newBar(w io.Writer, total int, tty bool, now func() time.Time, after func(time.Duration, func()) *time.Timer) *Bar {
	return &Bar{w: w, total: total, tty: tty, now: now, after: after, start: now()}
}

// Update records the counts so far. They are disjoint: a row is done
// (filed), failed, skipped (already filed by an earlier run, or refused
// before it ran) or unknown (it may have been filed: the person checks).
func (b *Bar) Update(done, failed, skipped, unknown int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.done, b.failed, b.skipped, b.unknown = done, failed, skipped, unknown
	if len(b.at) == 1 {
		b.at[0].row = 0 // a row ended; the next Step names the next one
	}
	now := b.now()
	if b.tty {
		b.redraw(now)
		return
	}
	pct := b.percentStep()
	if pct > b.drawnPct || now.Sub(b.drawn) >= plainEvery {
		b.drawnPct = pct
		b.drawn = now
		fmt.Fprintln(b.w, b.status(now))
	}
}

// Step records that row is at step (0-based) of steps: a row of many steps,
// or one long cell typed, shows where it is instead of a still line. It is
// drawn with the next redraw on a terminal, and at most every few seconds
// elsewhere.
func (b *Bar) Step(row, step, steps int) { b.StepOf(0, row, step, steps) }

// StepOf is Step for one of the run's workers (from 0), when rows are filed
// in parallel: the line shows where each is. Row 0 says the worker has
// none (it finished its last).
func (b *Bar) StepOf(worker, row, step, steps int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished || worker < 0 {
		return
	}
	for len(b.at) <= worker {
		b.at = append(b.at, position{})
	}
	b.at[worker] = position{row, step, steps}
	now := b.now()
	if b.tty {
		b.redraw(now)
		return
	}
	if now.Sub(b.drawn) >= plainEvery {
		b.drawn = now
		fmt.Fprintln(b.w, b.status(now))
	}
}

// Finish writes the final counts and ends the line. It is safe to call
// twice; later Updates are ignored.
func (b *Bar) Finish() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.finished {
		return
	}
	b.finished = true
	if b.pending != nil {
		b.pending.Stop()
	}
	now := b.now()
	if b.tty {
		b.draw(now)
		fmt.Fprintln(b.w)
		return
	}
	fmt.Fprintf(b.w, "%s, took %s\n", b.status(now), now.Sub(b.start).Round(time.Second))
}

// redraw draws now, or, too soon after the last draw, once the interval is
// up, so the last update before a long row is never left unshown.
func (b *Bar) redraw(now time.Time) {
	if wait := redrawEvery - now.Sub(b.drawn); !b.drawn.IsZero() && wait > 0 {
		if b.pending == nil {
			b.pending = b.after(wait, b.flush)
		}
		return
	}
	b.draw(now)
}

func (b *Bar) flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.pending = nil
	if !b.finished {
		b.draw(b.now())
	}
}

// draw rewrites the terminal line. It pads with spaces over the rest of the
// last line rather than send an erase-line escape, which Windows consoles
// without virtual-terminal mode print as text.
func (b *Bar) draw(now time.Time) {
	b.drawn = now
	line := b.bar() + b.status(now)
	pad := max(b.width-len(line), 0)
	b.width = len(line)
	fmt.Fprint(b.w, "\r"+line+strings.Repeat(" ", pad))
}

func (b *Bar) bar() string {
	if b.total <= 0 {
		return ""
	}
	n := min(barWidth*b.processed()/b.total, barWidth)
	return "[" + strings.Repeat("#", n) + strings.Repeat("-", barWidth-n) + "] "
}

// status is the counts, rate and estimate, the same words on both outputs.
func (b *Bar) status(now time.Time) string {
	var s strings.Builder
	if b.total > 0 {
		fmt.Fprintf(&s, "rows %d/%d: ", b.processed(), b.total)
	} else {
		fmt.Fprintf(&s, "rows %d: ", b.processed())
	}
	fmt.Fprintf(&s, "%d done, %d failed, %d skipped", b.done, b.failed, b.skipped)
	if b.unknown > 0 {
		fmt.Fprintf(&s, ", %d unknown", b.unknown)
	}
	if !b.finished {
		sep := "; "
		for _, p := range b.at {
			if p.row > 0 {
				fmt.Fprintf(&s, "%srow %d at step %d/%d", sep, p.row, p.step+1, p.steps)
				sep = ", "
			}
		}
	}
	// Skipped rows cost no time, so they count neither in the rate nor
	// against the estimate: a resumed run would otherwise look fast.
	worked := b.done + b.failed + b.unknown
	elapsed := now.Sub(b.start)
	if worked == 0 || elapsed <= 0 {
		return s.String()
	}
	rate := float64(worked) / elapsed.Seconds()
	fmt.Fprintf(&s, ", %.1f rows/s", rate)
	if left := b.total - b.processed(); b.total > 0 && left > 0 {
		eta := time.Duration(float64(left) / rate * float64(time.Second))
		fmt.Fprintf(&s, ", eta %s", eta.Round(time.Second))
	}
	return s.String()
}

func (b *Bar) processed() int { return b.done + b.failed + b.skipped + b.unknown }

func (b *Bar) percentStep() int {
	if b.total <= 0 {
		return 0
	}
	return 100 * b.processed() / b.total / plainStep
}

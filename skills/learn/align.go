package learn

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/reprise-dev/reprise/events"
)

// ErrDifferentTasks is returned when the recordings do not look like the
// same task done twice: too few of their steps line up.
var ErrDifferentTasks = errors.New("the recordings are not the same task")

const (
	// minMatch is the least similarity for two steps to count as the same.
	minMatch = 0.5
	// strongMatch is element identity (same id, name, or label and role):
	// only that is trusted to match steps done in a different order.
	strongMatch = 0.9
	// minAligned is the share of the longer recording's steps that must
	// line up for two recordings to be one task.
	minAligned = 0.5
)

// column is one step of the task as each recording did it: column[k] is
// recording k's step, nil where recording k did not do it.
type column []*events.Step

// rep is the step that stands for the column in the skill: the first whose
// element a tree or the DOM named, else the first with a label, else the
// first done.
func (c column) rep() *events.Step {
	var labelled, first *events.Step
	for _, s := range c {
		switch {
		case s == nil:
		case s.Enrichment != nil && (len(s.Enrichment.Selectors) > 0 || s.Enrichment.AXPath != nil):
			// A tree or the DOM named it: a label alone may be read off
			// the screen (a busy machine's enrichment timed out).
			return s
		case labelled == nil && hasElement(s.Enrichment):
			labelled = s
		case first == nil:
			first = s
		}
	}
	if labelled != nil {
		return labelled
	}
	return first
}

// align lines up the recordings' steps, progressively against the first:
// each further recording is aligned (Needleman–Wunsch, gap cost 0, match
// score the steps' similarity) to the columns built so far. Steps it leaves
// unmatched are then matched out of order by element identity (fields filled
// in another order), and what is still unmatched becomes a new column after
// the step that preceded it. The first recording's order is kept.
func align(recs []events.Recording) ([]column, error) {
	n := len(recs)
	cols := make([]column, len(recs[0].Steps))
	for i := range recs[0].Steps {
		cols[i] = make(column, n)
		cols[i][0] = &recs[0].Steps[i]
	}
	for k := 1; k < n; k++ {
		steps := recs[k].Steps
		sim := make([][]float64, len(cols))
		for i, c := range cols {
			sim[i] = make([]float64, len(steps))
			for j := range steps {
				sim[i][j] = similarity(c.rep(), &steps[j])
			}
		}
		inOrder := needleman(sim, len(steps))
		match := append([]int(nil), inOrder...)
		reorder(sim, match, steps)
		matched := 0
		for _, m := range match {
			if m >= 0 {
				matched++
			}
		}
		longer := max(len(recs[0].Steps), len(steps))
		if float64(matched) < minAligned*float64(longer) {
			return nil, fmt.Errorf("%w: only %d of %d steps of recording %d line up with recording 1; record the same task for each row",
				ErrDifferentTasks, matched, longer, k+1)
		}
		cols = merge(cols, steps, match, inOrder, k, n)
	}
	return cols, nil
}

// needleman returns, for each step j, the column it matches in order, or -1.
func needleman(sim [][]float64, n int) []int {
	m := len(sim)
	score := make([][]float64, m+1)
	for i := range score {
		score[i] = make([]float64, n+1)
	}
	for i := 1; i <= m; i++ {
		for j := 1; j <= n; j++ {
			best := max(score[i-1][j], score[i][j-1])
			if s := sim[i-1][j-1]; s >= minMatch {
				best = max(best, score[i-1][j-1]+s)
			}
			score[i][j] = best
		}
	}
	match := make([]int, n)
	for j := range match {
		match[j] = -1
	}
	for i, j := m, n; i > 0 && j > 0; {
		s := sim[i-1][j-1]
		switch {
		case s >= minMatch && score[i][j] == score[i-1][j-1]+s:
			match[j-1] = i - 1
			i, j = i-1, j-1
		case score[i][j] == score[i-1][j]:
			i--
		default:
			j--
		}
	}
	return match
}

// reorder matches steps left over by the in-order alignment to columns left
// over, when they touch the same field (fills done in another order).
func reorder(sim [][]float64, match []int, steps []events.Step) {
	used := map[int]bool{}
	for _, m := range match {
		if m >= 0 {
			used[m] = true
		}
	}
	for j, m := range match {
		if m >= 0 || !reorderable(&steps[j]) {
			continue
		}
		best, at := 0.0, -1
		for i := range sim {
			if !used[i] && sim[i][j] >= strongMatch && sim[i][j] > best {
				best, at = sim[i][j], i
			}
		}
		if at >= 0 {
			match[j] = at
			used[at] = true
		}
	}
}

// reorderable steps are independent of their neighbours: setting a field.
func reorderable(s *events.Step) bool {
	switch s.Action {
	case events.ActionFill, events.ActionSelect, events.ActionUpload:
		return true
	case events.ActionClick:
		return s.Enrichment != nil && (boxRole(s.Enrichment.Role) || radioRole(s.Enrichment.Role))
	}
	return false
}

// merge puts recording k's steps into the columns they matched, and makes a
// new column for each unmatched step, after the column of the step before
// it in recording k's own order (anchored on in-order matches only).
func merge(cols []column, steps []events.Step, match, inOrder []int, k, n int) []column {
	inserts := map[int][]int{}
	anchor := -1
	for j, m := range match {
		switch {
		case inOrder[j] >= 0:
			anchor = inOrder[j]
		case m < 0:
			inserts[anchor] = append(inserts[anchor], j)
		}
	}
	var out []column
	add := func(at int) {
		for _, j := range inserts[at] {
			c := make(column, n)
			c[k] = &steps[j]
			out = append(out, c)
		}
	}
	add(-1)
	for i, c := range cols {
		out = append(out, c)
		add(i)
	}
	for j, m := range match {
		if m >= 0 {
			cols[m][k] = &steps[j]
		}
	}
	return out
}

// similarity scores whether two steps are the same step of the task, from
// 0 to 1: the same action on the same element (by id or name, else label
// and role, else role+text or xpath), or for navigation the same page.
func similarity(a, b *events.Step) float64 {
	// A range's start and its end are two steps on one control.
	if a == nil || b == nil || a.Action != b.Action || halfOf(a) != halfOf(b) {
		return 0
	}
	if a.Action == events.ActionNavigate {
		return sameURL(navURL(a), navURL(b))
	}
	ea, eb := a.Enrichment, b.Enrichment
	if resolved(ea) && resolved(eb) {
		return sameElement(ea, eb)
	}
	// A label OCR read off a frame (no channel resolved the element) is a
	// guess: agreeing, it says the same step; disagreeing, it says nothing,
	// and the floor decides as for a step with no element.
	if hasElement(ea) && hasElement(eb) {
		if s := sameElement(ea, eb); s > 0 {
			return s
		}
	}
	near := a.ActiveApp == b.ActiveApp && a.ActiveWindow == b.ActiveWindow &&
		len(a.Cursor) == 2 && len(b.Cursor) == 2 && abs(a.Cursor[0]-b.Cursor[0]) <= 30 && abs(a.Cursor[1]-b.Cursor[1]) <= 30
	if hasElement(ea) || hasElement(eb) {
		// A channel resolved the element in one demonstration only: the
		// click that closed a dialog was looked up after the dialog had
		// gone, its element and window no longer there. The floor, which
		// every step has, still says it is the same step when it was done
		// at the same place in the same app, in the same window or one
		// that could not be named. The weakest match, so an element both
		// resolved always wins over it.
		sameWindow := a.ActiveWindow == b.ActiveWindow || a.ActiveWindow == "" || b.ActiveWindow == ""
		if a.ActiveApp == b.ActiveApp && sameWindow && len(a.Cursor) == 2 && len(b.Cursor) == 2 &&
			abs(a.Cursor[0]-b.Cursor[0]) <= 30 && abs(a.Cursor[1]-b.Cursor[1]) <= 30 {
			return minMatch
		}
		return 0
	}
	// Neither channel resolved the element: the same app and window is all
	// there is; a nearby cursor makes it likelier.
	if a.ActiveApp != b.ActiveApp || a.ActiveWindow != b.ActiveWindow {
		return 0
	}
	if near {
		return 0.6
	}
	return minMatch
}

func sameElement(ea, eb *events.Enrichment) float64 {
	conflict := false
	for _, st := range []string{events.StrategyID, events.StrategyName} {
		va, vb := strategyValue(ea, st), strategyValue(eb, st)
		if va != "" && vb != "" {
			if va == vb {
				return 1
			}
			conflict = true
		}
	}
	same := 0.0
	switch {
	case ea.Label != "" && ea.Label == eb.Label && roleKey(ea.Role) == roleKey(eb.Role):
		same = 0.9
	case strategyValue(ea, events.StrategyRoleText) != "" && strategyValue(ea, events.StrategyRoleText) == strategyValue(eb, events.StrategyRoleText):
		same = 0.9
	case strategyValue(ea, events.StrategyCSS) != "" && strategyValue(ea, events.StrategyCSS) == strategyValue(eb, events.StrategyCSS):
		same = 0.8
	case strategyValue(ea, events.StrategyXPath) != "" && strategyValue(ea, events.StrategyXPath) == strategyValue(eb, events.StrategyXPath):
		same = 0.7
	case ea.AXPath != nil && eb.AXPath != nil && *ea.AXPath == *eb.AXPath:
		same = 0.7
	}
	if conflict {
		// Different ids with the same label may be generated ids, or two
		// fields sharing a label: good enough in order, never out of order.
		return min(same, 0.7)
	}
	return same
}

// resolved reports whether a channel (the DOM, an accessibility tree)
// resolved the element, not OCR.
func resolved(e *events.Enrichment) bool {
	return hasElement(e) && e.Kind != events.KindNone && e.Kind != ""
}

func hasElement(e *events.Enrichment) bool {
	return e != nil && (len(e.Selectors) > 0 || e.Label != "" || e.AXPath != nil)
}

func strategyValue(e *events.Enrichment, strategy string) string {
	for _, s := range e.Selectors {
		if s.Strategy == strategy {
			return s.Value
		}
	}
	return ""
}

// navURL is where a navigate step went: its value, else its page.
func navURL(s *events.Step) string {
	if s.Value != nil && s.Value.Raw != "" {
		return s.Value.Raw
	}
	if s.Enrichment != nil {
		return s.Enrichment.URL
	}
	return ""
}

func sameURL(a, b string) float64 {
	if a == b {
		return 1
	}
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil || ua.Host != ub.Host {
		return 0
	}
	if ua.Path == ub.Path {
		return 0.9
	}
	return 0.6
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

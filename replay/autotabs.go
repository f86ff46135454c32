package replay

import (
	"sync"
	"time"
)

// What limited --parallel auto's tabs: the reason it stopped adding them.
const (
	LimitCPU      = "this machine's CPU"
	LimitAnswers  = "the site's answers"
	LimitRefusals = "the site's refusals"
	LimitMost     = "the most tabs a run opens"
	LimitTab      = "a tab that did not open"
)

// autoGain is how much faster a window must file its rows than the one
// before it for another tab to be worth opening.
const autoGain = 1.10

// autoBusy is the share of every core in use from which a window that
// filed no faster is said to be limited by this machine's CPU.
const autoBusy = 0.85

// autoTabs is --parallel auto's controller: it counts the rows filed in
// windows of a few rows per tab, and after each window opens another tab
// while rows per second keep rising; when they stop, it says what limited
// them (Options.More). Safe for concurrent use.
type autoTabs struct {
	most int
	now  func() time.Time
	cpu  func() (busy, total uint64, ok bool)

	mu       sync.Mutex
	tabs     int
	start    time.Time
	filed    int
	refused  int
	busy0    uint64
	total0   uint64
	cpuOK    bool
	prevRate float64
	limit    string // set once it stops adding tabs
}

func newAutoTabs(most int, now func() time.Time, cpu func() (uint64, uint64, bool)) *autoTabs {
	a := &autoTabs{most: most, now: now, cpu: cpu, tabs: 1}
	a.window()
	return a
}

// window starts a new window of rows.
func (a *autoTabs) window() {
	a.start, a.filed, a.refused = a.now(), 0, 0
	a.busy0, a.total0, a.cpuOK = a.cpu()
}

// size is how many rows a window holds: enough for every tab to file a
// few.
func (a *autoTabs) size() int { return max(4, 3*a.tabs) }

// rowDone counts a row filled (refused: the site refused it, a 429 or a
// bot check) with left rows still to take, and says whether to open
// another tab now.
func (a *autoTabs) rowDone(refused bool, left int) (grow bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.limit != "" {
		return false
	}
	a.filed++
	if refused {
		a.refused++
	}
	if a.filed < a.size() {
		return false
	}
	took := a.now().Sub(a.start).Seconds()
	rate := float64(a.filed) / max(took, 1e-3)
	busy := -1.0
	if b, t, ok := a.cpu(); ok && a.cpuOK && t > a.total0 {
		busy = float64(b-a.busy0) / float64(t-a.total0)
	}
	switch {
	case a.refused > 0:
		a.limit = LimitRefusals
	case a.prevRate > 0 && rate < a.prevRate*autoGain && busy >= autoBusy:
		a.limit = LimitCPU
	case a.prevRate > 0 && rate < a.prevRate*autoGain:
		a.limit = LimitAnswers
	case a.tabs >= a.most:
		a.limit = LimitMost
	case left < a.size(): // too few rows left to tell whether one more helps
	default:
		a.prevRate = rate
		a.tabs++
		a.window()
		return true
	}
	a.window()
	return false
}

// cannot stops adding tabs for why; the last one did not open.
func (a *autoTabs) cannot(why string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.tabs--
	a.limit = why
}

// result is the tabs the run settled on and what limited it ("" while it
// was still adding them when the rows ran out).
func (a *autoTabs) result() (int, string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.tabs, a.limit
}

package replay

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/natstest"
)

// --parallel auto's decisions, on a clock and a CPU the test sets: a
// window of rows at each rate in turn, each window's CPU busy share and
// refusals.
func TestAutoTabsDecides(t *testing.T) {
	type window struct {
		rate    float64 // rows/s
		busy    float64 // share of the machine's CPU in use; <0 unknown
		refused bool
	}
	for _, tc := range []struct {
		name      string
		windows   []window
		most      int
		left      int
		tabs      int
		limit     string
		growsLast bool
	}{
		{"rising, then flat with the CPU idle: the site's answers", []window{{10, 0.3, false}, {19, 0.4, false}, {27, 0.5, false}, {28, 0.5, false}}, 16, 1000, 4, LimitAnswers, false},
		{"rising, then flat with every core busy: the CPU", []window{{10, 0.5, false}, {18, 0.9, false}, {18.5, 0.95, false}}, 16, 1000, 3, LimitCPU, false},
		{"flat, CPU unknown: the site's answers", []window{{10, -1, false}, {10.5, -1, false}}, 16, 1000, 2, LimitAnswers, false},
		{"a refusal: the site's refusals at once", []window{{10, 0.2, false}, {20, 0.2, true}}, 16, 1000, 2, LimitRefusals, false},
		{"the most tabs", []window{{10, 0.2, false}, {20, 0.2, false}, {30, 0.2, false}}, 3, 1000, 3, LimitMost, false},
		{"too few rows left to tell", []window{{10, 0.2, false}}, 16, 2, 1, "", false},
		{"still rising", []window{{10, 0.2, false}, {20, 0.2, false}}, 16, 1000, 3, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Unix(0, 0)
			var busy, total uint64
			cpuKnown := true
			a := newAutoTabs(tc.most, func() time.Time { return now }, func() (uint64, uint64, bool) { return busy, total, cpuKnown })
			var grew bool
			for _, w := range tc.windows {
				n := a.size()
				now = now.Add(time.Duration(float64(n) / w.rate * float64(time.Second)))
				cpuKnown = w.busy >= 0
				total += 1000
				busy += uint64(max(w.busy, 0) * 1000)
				for i := range n {
					grew = a.rowDone(w.refused && i == 0, tc.left)
				}
			}
			tabs, limit := a.result()
			if tabs != tc.tabs || limit != tc.limit || grew != tc.growsLast {
				t.Errorf("tabs %d, limit %q, grew at the last window %v; want %d, %q, %v", tabs, limit, grew, tc.tabs, tc.limit, tc.growsLast)
			}
		})
	}
}

// capped is a tab of a site that files at most three rows at a time,
// each submit taking 40 ms: more than three tabs file no faster.
type capped struct {
	*site
	slots chan struct{}
}

func (c capped) Do(ctx context.Context, st Step) (Outcome, error) {
	if st.Action == "submit" && !st.DryRun {
		c.slots <- struct{}{}
		time.Sleep(40 * time.Millisecond)
		<-c.slots
	}
	return c.site.Do(ctx, st)
}

// A run that opens its own tabs (--parallel auto) files every row once,
// opens more than one tab where they help, and says what stopped it.
func TestEngineOpensItsOwnTabs(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	dryRun(t, js, true)
	s := newSite()
	slots := make(chan struct{}, 3)
	p := plan("auto", testSkill(true), 80)
	ctx := context.Background()
	var mu sync.Mutex
	var stops []func()
	defer func() {
		for _, stop := range stops {
			stop()
		}
	}()
	serve := func(n int, x Executor) error {
		stop, err := ServeWorker(ctx, js, p, n, x, nil)
		mu.Lock()
		stops = append(stops, stop)
		mu.Unlock()
		return err
	}
	first := capped{s, slots}
	if err := serve(0, first); err != nil {
		t.Fatal(err)
	}
	var opened []int
	more := func(_ context.Context, n int) (Executor, error) {
		x := capped{s, slots}
		opened = append(opened, n)
		return x, serve(n, x)
	}
	res, err := Run(ctx, Options{JS: js, Plan: p, Executor: first, More: more, Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(res); got[OutcomeCommitted] != 80 {
		t.Fatalf("outcomes %v; want 80 committed", got)
	}
	for i := 1; i <= 80; i++ {
		if n := s.filed[fmt.Sprintf("row%d@example.org", i)]; n != 1 {
			t.Errorf("row %d filed %d times; want once", i, n)
		}
	}
	if res.Tabs < 2 || res.Tabs != len(opened)+1 || !slices.Contains([]string{"", LimitAnswers, LimitCPU}, res.TabsLimit) {
		t.Errorf("settled on %d tabs (opened %v), limited by %q; want 2 or more, as opened, by the site or the CPU", res.Tabs, opened, res.TabsLimit)
	}
}

//go:build !windows

package hub

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// paced is a site that takes delay to answer each submit and counts what
// it filed: the rows a tab files are bound by it, as a real site's are.
type paced struct {
	delay time.Duration
	filed atomic.Int64
}

func (s *paced) Do(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	if st.Action == "submit" && !st.DryRun {
		select {
		case <-time.After(s.delay):
		case <-ctx.Done():
			return replay.Outcome{}, ctx.Err()
		}
		s.filed.Add(1)
		return replay.Outcome{OK: true, Committed: true}, nil
	}
	return replay.Outcome{OK: true}, nil
}
func (s *paced) Verify(context.Context, skills.Verification) (bool, error) { return false, nil }
func (s *paced) Snapshot(context.Context, string) error                    { return nil }
func (s *paced) Close() error                                              { return nil }

// BenchmarkHubWorkers files a run's rows through a 3-node nats-server
// cluster on this machine with 1, 2 and 3 workers of 4 tabs each, against
// a site that answers each submit in 0 ms (what the hub itself allows:
// its per-row messages) and in 200 ms (a site's answer, which the workers
// spread). Each reports rows/s.
func BenchmarkHubWorkers(b *testing.B) {
	cluster := natstest.StartCluster(b, 3, "reprise", "bench")
	key, err := LoadKey(filepath.Join(b.TempDir(), "hub.key"), true)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := skills.Marshal(skill)
	if err != nil {
		b.Fatal(err)
	}
	const rows, tabs = 120, 4
	runs := 0
	// fileRun files a run of n rows on whichever workers run, and returns
	// how long it took from queueing to the last result.
	fileRun := func(b *testing.B, ctx context.Context, n int) time.Duration {
		_, js := cluster.Connect(b)
		runs++
		id := fmt.Sprintf("bench%d", runs)
		p := &replay.Plan{RunID: id, SkillID: "new-customer", Skill: skill, Digest: replay.Digest(doc), CSV: id}
		for i := 1; i <= n; i++ {
			email := fmt.Sprintf("%s-%d@example.org", id, i)
			p.Rows = append(p.Rows, replay.Row{N: i, Values: map[string]string{"name": "N", "email": email}, Key: "k" + email})
		}
		r := &Run{JS: js, Key: key, Plan: p, Doc: doc, Ledger: b.TempDir()}
		start := time.Now()
		session, settled, err := r.Start(ctx)
		if err != nil {
			b.Fatal(err)
		}
		res, err := r.Wait(ctx, session, settled)
		if err != nil || res.Failed() {
			b.Fatalf("run: %v", err)
		}
		return time.Since(start)
	}
	startWorkers := func(b *testing.B, ctx context.Context, s *paced, n int) *sync.WaitGroup {
		var wg sync.WaitGroup
		for i := range n {
			_, js := cluster.Connect(b)
			execs := make(Fixed, tabs)
			for j := range execs {
				execs[j] = s
			}
			w := &Worker{JS: js, Key: key, Name: fmt.Sprint("w", i), Tabs: execs}
			wg.Go(func() { _ = w.Run(ctx) })
		}
		return &wg
	}
	// The streams, consumer and leaders made, and the first writes paid,
	// before anything is timed.
	ctx, stop := context.WithCancel(context.Background())
	wg := startWorkers(b, ctx, &paced{}, 1)
	fileRun(b, ctx, 10)
	stop()
	wg.Wait()
	for _, delay := range []time.Duration{0, 200 * time.Millisecond} {
		for _, workers := range []int{1, 2, 3} {
			b.Run(fmt.Sprintf("site-%dms/workers-%d", delay.Milliseconds(), workers), func(b *testing.B) {
				s := &paced{delay: delay}
				ctx, stop := context.WithCancel(context.Background())
				wg := startWorkers(b, ctx, s, workers)
				defer func() { stop(); wg.Wait() }()
				var took time.Duration
				for range b.N {
					took += fileRun(b, ctx, rows)
				}
				b.ReportMetric(float64(rows*b.N)/took.Seconds(), "rows/s")
			})
		}
	}
}

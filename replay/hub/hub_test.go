package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// site is a fake web form shared by every worker's tabs: a submit files
// what the row's tab typed.
type site struct {
	mu    sync.Mutex
	typed map[int]map[string]string
	filed map[string]int
	// breakAt, when set, makes the executor that reaches row breakAt's
	// submit break after filing it, once: a worker dying mid-row.
	breakAt int
	// holdAt, when set, holds row holdAt's submit, before filing it, until
	// release is closed or the tab's context ends; held hears of it.
	holdAt  int
	held    chan int
	release chan struct{}
	steps   int
}

func newSite() *site { return &site{typed: map[int]map[string]string{}, filed: map[string]int{}} }

// hold makes row n's submit wait for the closing of the channel returned;
// the first channel says it is waiting.
func (s *site) hold(n int) (held <-chan int, release chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holdAt, s.held, s.release = n, make(chan int, 1), make(chan struct{})
	return s.held, s.release
}

// count is how many times the record with this email was filed.
func (s *site) count(email string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.filed[email]
}

func (s *site) Do(ctx context.Context, st replay.Step) (replay.Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps++
	switch st.Action {
	case "navigate":
		s.typed[st.Row] = map[string]string{}
	case "fill":
		s.typed[st.Row][st.Label] = st.Value
	case "submit":
		if st.DryRun {
			return replay.Outcome{OK: true}, nil
		}
		if st.Row == s.holdAt {
			s.holdAt = 0
			s.held <- st.Row
			release := s.release
			s.mu.Unlock()
			select {
			case <-release:
			case <-ctx.Done():
				s.mu.Lock()
				return replay.Outcome{}, ctx.Err()
			}
			s.mu.Lock()
		}
		s.filed[s.typed[st.Row]["Email"]]++
		if st.Row == s.breakAt {
			s.breakAt = 0
			return replay.Outcome{}, errors.New("the browser is gone")
		}
		return replay.Outcome{OK: true, Committed: true}, nil
	}
	return replay.Outcome{OK: true}, nil
}

func (s *site) Verify(_ context.Context, v skills.Verification) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.filed[v.Expect.Value] > 0, nil
}
func (s *site) Snapshot(context.Context, string) error { return nil }
func (s *site) Close() error                           { return nil }

// tab is one worker's executor on the site.
type tab struct{ *site }

var skill = &skills.Skill{Version: 1, Name: "new customer",
	Parameters: []skills.Parameter{{Name: "name", Column: "Name", Type: "text"}, {Name: "email", Column: "Email", Type: "email"}},
	DedupeKey:  []string{"email"},
	Steps: []skills.Step{
		{Action: "navigate", Value: "http://site.test/new"},
		{Action: "fill", Label: "Name", Value: "%name%"},
		{Action: "fill", Label: "Email", Value: "%email%"},
		{Action: "submit", Destructive: true, Assert: skills.Conditions{{Kind: "url_changed"}}},
	},
	Verify: &skills.Verification{URL: "http://site.test/find?email=%email%", Expect: skills.Condition{Kind: "text", Value: "%email%"}}}

func plan(t *testing.T, runID string, n int, emails func(int) string) (*replay.Plan, []byte) {
	doc, err := skills.Marshal(skill)
	if err != nil {
		t.Fatal(err)
	}
	p := &replay.Plan{RunID: runID, SkillID: "new-customer", Skill: skill, Digest: replay.Digest(doc), CSV: fmt.Sprint(runID, n)}
	for i := 1; i <= n; i++ {
		p.Rows = append(p.Rows, replay.Row{N: i, Values: map[string]string{"name": fmt.Sprint("Name ", i), "email": emails(i)}, Key: "k" + emails(i)})
	}
	return p, doc
}

// Two workers of three tabs between them file a run's rows, each once; a
// tab that breaks right after filing a row leaves it to the others, who
// settle it by the skill's verification; a second run's row whose record
// the first filed is skipped by its claim; a resume from "another machine"
// (a second coordinator) finds every row settled.
func TestHubFilesEachRowOnce(t *testing.T) {
	_, _, js := natstest.Start(t, "m_hub")
	key, err := LoadKey(filepath.Join(t.TempDir(), "hub.key"), true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s := newSite()
	s.breakAt = 7
	email := func(i int) string { return fmt.Sprintf("row%d@example.org", i) }

	// A malformed row on the queue is dropped, and the workers go on.
	if err := Ensure(ctx, js); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, rowsPrefix+"junk", []byte{0xc1, 0xff, 0x00}); err != nil {
		t.Fatal(err)
	}
	dry, dryDoc := plan(t, "dry", 2, email)
	workers, wctx := startWorkers(t, ctx, js, key, s)
	// The coordinator's ledger, on "this machine"; elsewhere is another's.
	here, elsewhere := t.TempDir(), t.TempDir()
	res := runOnHub(t, ctx, &Run{JS: js, Key: key, Plan: dry, Doc: dryDoc, DryRun: true, Ledger: here})
	if got := count(res); got[replay.OutcomeDryRun] != 2 {
		t.Fatalf("dry run: %v", got)
	}
	if passed, err := (&Run{JS: js, Key: key, Plan: dry}).PassedDryRun(ctx); err != nil || !passed {
		t.Fatalf("the hub's dry run is not recorded as passed: %v %v", passed, err)
	}

	p, doc := plan(t, "run1", 24, email)
	res = runOnHub(t, ctx, &Run{JS: js, Key: key, Plan: p, Doc: doc, Ledger: here})
	if got := count(res); got[replay.OutcomeCommitted] != 24 {
		t.Fatalf("outcomes %v; want 24 committed: %+v", got, res.Rows)
	}
	for i := 1; i <= 24; i++ {
		if n := s.filed[email(i)]; n != 1 {
			t.Errorf("row %d filed %d times; want once", i, n)
		}
	}
	if r := res.Rows[6]; !strings.Contains(r.Reason, "verified") {
		t.Errorf("row 7, filed by a tab that broke, is %+v; want committed as verified on the site", r)
	}

	// Another run, from another machine, over rows 20-24's records and
	// two new ones: the records already filed are skipped by their claims.
	p2, doc2 := plan(t, "run2", 7, func(i int) string { return email(i + 19) })
	res = runOnHub(t, ctx, &Run{JS: js, Key: key, Plan: p2, Doc: doc2, Ledger: elsewhere})
	if got := count(res); got[replay.OutcomeSkipped] != 5 || got[replay.OutcomeCommitted] != 2 {
		t.Fatalf("second run: %v; want 5 skipped, 2 committed: %+v", got, res.Rows)
	}
	if r := res.Rows[0]; !strings.Contains(r.Reason, "claimed on the hub by run run1") {
		t.Errorf("second run's row 1 is %+v; want skipped as run1's record", r)
	}
	// Every row is acked once its result is written (a worker may still
	// be acking the last), and the malformed one was dropped.
	rows, err := js.Stream(ctx, StreamRows)
	if err != nil {
		t.Fatal(err)
	}
	for left := uint64(1); left > 0; time.Sleep(50 * time.Millisecond) {
		info, err := rows.Info(ctx)
		if err != nil {
			t.Fatalf("the queue: %v (%d rows left)", err, left)
		}
		left = info.State.Msgs
	}
	cancel()
	workers.Wait()
	_ = wctx

	// A resume from another machine: every row settled, nothing queued.
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	defer cancel2()
	var exists *replay.RunExistsError
	if _, _, err := (&Run{JS: js, Key: key, Plan: p, Doc: doc, Ledger: elsewhere}).Start(ctx2); !errors.As(err, &exists) || exists.RunID != p.RunID {
		t.Errorf("a second start of run1 without resume: %v; want a *replay.RunExistsError", err)
	}
	res = runOnHub(t, ctx2, &Run{JS: js, Key: key, Plan: p, Doc: doc, Resume: true, Ledger: elsewhere})
	if got := count(res); got[replay.OutcomeCommitted] != 24 {
		t.Fatalf("resume: %v", got)
	}
}

func startWorkers(t *testing.T, ctx context.Context, js jetstream.JetStream, key *Key, s *site) (*sync.WaitGroup, context.Context) {
	var wg sync.WaitGroup
	for i, execs := range [][]replay.Executor{{tab{s}, tab{s}}, {tab{s}}} {
		w := &Worker{JS: js, Key: key, Name: fmt.Sprint("w", i), Tabs: Fixed(execs), Logger: slog.Default()}
		wg.Go(func() {
			// A worker whose tab broke runs again, as a restarted
			// `reprise worker` would.
			for ctx.Err() == nil {
				if err := w.Run(ctx); err != nil {
					t.Logf("worker %s: %v", w.Name, err)
				}
			}
		})
	}
	return &wg, ctx
}

func runOnHub(t *testing.T, ctx context.Context, r *Run) *replay.Result {
	t.Helper()
	session, settled, err := r.Start(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait(ctx, session, settled)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != len(r.Plan.Rows) {
		t.Fatalf("%d rows in the report of %d", len(res.Rows), len(r.Plan.Rows))
	}
	return res
}

func count(res *replay.Result) map[string]int {
	m := map[string]int{}
	for _, r := range res.Rows {
		m[r.Outcome]++
	}
	return m
}

// A row sealed under one hub key does not open under another, nor moved
// to another row.
func TestKeySealsToPlace(t *testing.T) {
	dir := t.TempDir()
	a, err := LoadKey(filepath.Join(dir, "a"), true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := LoadKey(filepath.Join(dir, "b"), true)
	sealed := a.seal([]byte(`{"email":"x@example.org"}`), rowPlace("r", 1))
	if _, err := a.open(sealed, rowPlace("r", 1)); err != nil {
		t.Fatalf("open in place: %v", err)
	}
	if _, err := a.open(sealed, rowPlace("r", 2)); err == nil {
		t.Error("a row's values opened as another row's")
	}
	if _, err := b.open(sealed, rowPlace("r", 1)); err == nil {
		t.Error("a row's values opened under another hub key")
	}
	if _, err := LoadKey(filepath.Join(dir, "missing"), false); err == nil || !strings.Contains(err.Error(), "copy the hub key") {
		t.Errorf("a missing key: %v; want a message saying to copy it", err)
	}
	if got := Redact("nats://u:secret@h1:4222,nats://h2:4222"); strings.Contains(got, "secret") {
		t.Errorf("Redact kept the password: %s", got)
	}
}

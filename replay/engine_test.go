package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/skills"
)

// site is a fake of the web form: a submit files the row typed into it.
type site struct {
	mu     sync.Mutex
	typed  map[int]map[string]string // row -> field label -> value: the forms being filled (one per tab)
	filed  map[string]int            // email -> times filed
	reject map[string]bool           // emails the site refuses
	slow   map[string]bool           // emails the site files too slowly for the check
	unfit  map[string]bool           // emails the form's field will not take (a read-back fails)
	// crashAt, when set, cancels the run right after row's submit filed it
	// (or right before, with crashBefore): the process died in between.
	crashAt     int
	crashBefore bool
	cancel      context.CancelFunc
	steps       int
}

func newSite() *site {
	return &site{typed: map[int]map[string]string{}, filed: map[string]int{}, reject: map[string]bool{}, slow: map[string]bool{}, unfit: map[string]bool{}}
}

func (s *site) Do(_ context.Context, st Step) (Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.steps++
	switch st.Action {
	case "navigate":
		s.typed[st.Row] = map[string]string{}
		return Outcome{OK: true}, nil
	case "fill":
		if s.unfit[st.Value] {
			return Outcome{Error: fmt.Sprintf("step %d (fill %q): read-back failed", st.Index+1, st.Label)}, nil
		}
		s.typed[st.Row][st.Label] = st.Value
		return Outcome{OK: true, Via: ViaDOM}, nil
	case "submit":
		if st.DryRun {
			return Outcome{OK: true}, nil
		}
		if st.Row == s.crashAt && s.crashBefore {
			s.cancel()
			return Outcome{}, context.Canceled
		}
		email := s.typed[st.Row]["Email"]
		if s.reject[email] {
			return Outcome{Error: "step 4 (submit): the assert url_changed did not hold", PageMessage: "Email " + email + " already exists",
				Watched: true, Sent: true, Status: 422}, nil
		}
		s.filed[email]++
		if s.slow[email] {
			return Outcome{Error: "step 4 (submit): the assert url_changed did not hold", Watched: true, Sent: true}, nil
		}
		if st.Row == s.crashAt {
			s.cancel()
			return Outcome{}, context.Canceled
		}
		return Outcome{OK: true, Via: ViaDOM, Committed: true}, nil
	}
	return Outcome{}, fmt.Errorf("unexpected action %s", st.Action)
}

func (s *site) Verify(_ context.Context, v skills.Verification) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.filed[v.Expect.Value] > 0, nil
}

func (s *site) Snapshot(context.Context, string) error { return nil }
func (s *site) Close() error                           { return nil }

func testSkill(verify bool) *skills.Skill {
	sk := &skills.Skill{Version: 1, Name: "new customer",
		Parameters: []skills.Parameter{{Name: "name", Column: "Name", Type: "text"}, {Name: "email", Column: "Email", Type: "email"}},
		DedupeKey:  []string{"email"},
		Steps: []skills.Step{
			{Action: "navigate", Value: "http://site.test/new"},
			{Action: "fill", Label: "Name", Value: "%name%", ReadBack: &skills.ReadBack{Kind: "value", Expect: "%name%"}},
			{Action: "fill", Label: "Email", Value: "%email%"},
			{Action: "submit", Destructive: true, Assert: skills.Conditions{{Kind: "url_changed"}}},
		}}
	if verify {
		sk.Verify = &skills.Verification{URL: "http://site.test/find?email=%email%", Expect: skills.Condition{Kind: "text", Value: "%email%"}}
	}
	return sk
}

func plan(runID string, sk *skills.Skill, n int) *Plan {
	p := &Plan{RunID: runID, SkillID: "new-customer", Skill: sk, Digest: "v1", CSV: fmt.Sprint("csv", n)}
	for i := 1; i <= n; i++ {
		email := fmt.Sprintf("row%d@example.org", i)
		p.Rows = append(p.Rows, Row{N: i, Values: map[string]string{"name": fmt.Sprint("Name ", i), "email": email}, Key: "k-" + email})
	}
	return p
}

func outcomes(res *Result) map[string]int {
	m := map[string]int{}
	for _, r := range res.Rows {
		m[r.Outcome]++
	}
	return m
}

// dryRun passes a dry run of the test skill's version, as --dry-run does.
func dryRun(t *testing.T, js jetstream.JetStream, verify bool) {
	t.Helper()
	s := newSite()
	p := plan(fmt.Sprint("dry", verify), testSkill(verify), 2)
	ctx := context.Background()
	stop, err := Serve(ctx, js, p, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, DryRun: true})
	if err != nil || outcomes(res)[OutcomeDryRun] != 2 || len(s.filed) != 0 {
		t.Fatalf("dry run: %+v, %v, filed %v", res, err, s.filed)
	}
}

func TestEngineExactlyOnceAcrossCrashes(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	dryRun(t, js, true)
	dryRun(t, js, false)
	for _, tc := range []struct {
		name        string
		verify      bool
		crashBefore bool
		wantUnknown int
	}{
		{"crash after the submit, verified on the site", true, false, 0},
		{"crash after the submit, no verify: unknown", false, false, 1},
		{"crash before the submit, verified absent: filled again", true, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite()
			runID := fmt.Sprintf("run%d", len(tc.name)+map[bool]int{true: 100}[tc.verify]+map[bool]int{true: 1000}[tc.crashBefore])
			p := plan(runID, testSkill(tc.verify), 6)
			ctx, cancel := context.WithCancel(context.Background())
			s.crashAt, s.crashBefore, s.cancel = 3, tc.crashBefore, cancel
			stop, err := Serve(ctx, js, p, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Run(ctx, Options{JS: js, Plan: p, Executor: s, Yes: true, Again: true, DryRun: false, Confirm: nil})
			stop()
			if err == nil {
				t.Fatal("the run went on past its crash")
			}
			// Resume in a new "process".
			s.crashAt = 0
			ctx = context.Background()
			stop, _ = Serve(ctx, js, p, s, nil)
			defer stop()
			res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Resume: true, Yes: true, Again: true})
			if err != nil {
				t.Fatal(err)
			}
			got := outcomes(res)
			if got[OutcomeUnknown] != tc.wantUnknown || got[OutcomeCommitted] != 6-tc.wantUnknown {
				t.Fatalf("outcomes %v; want %d unknown, the rest committed", got, tc.wantUnknown)
			}
			for i := 1; i <= 6; i++ {
				if n := s.filed[fmt.Sprintf("row%d@example.org", i)]; n != 1 {
					t.Errorf("row %d filed %d times; want once", i, n)
				}
			}
			if tc.wantUnknown == 1 && res.Rows[2].Outcome != OutcomeUnknown {
				t.Errorf("the unknown row is %+v; want row 3, the one in flight", res.Rows[2])
			}
		})
	}
}

func TestEngineChecksRejectsAndSkips(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	run := func(p *Plan, s *site, o Options) (*Result, error) {
		t.Helper()
		stop, err := Serve(ctx, js, p, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		o.JS, o.Plan, o.Executor = js, p, s
		return Run(ctx, o)
	}

	// A first unattended run of a destructive version is refused.
	s := newSite()
	if _, err := run(plan("yes-first", testSkill(false), 3), s, Options{Yes: true}); err == nil || len(s.filed) != 0 {
		t.Fatalf("--yes before any dry run: %v, filed %v; want a refusal, nothing filed", err, s.filed)
	}
	// The person is shown rows 1-2 filled, not submitted; a no files nothing.
	var shown []int
	no := func(_ context.Context, rows []int, _ []string) (bool, error) { shown = rows; return false, nil }
	if _, err := run(plan("declined", testSkill(false), 3), s, Options{Confirm: no}); !errors.Is(err, ErrNotConfirmed) || len(s.filed) != 0 || fmt.Sprint(shown) != "[1 2]" {
		t.Fatalf("declined check: %v, shown %v, filed %v", err, shown, s.filed)
	}
	// A yes submits them and the rest; the site refuses row 2.
	s.reject["row2@example.org"] = true
	yes := func(context.Context, []int, []string) (bool, error) { return true, nil }
	res, err := run(plan("confirmed", testSkill(false), 4), s, Options{Confirm: yes, OnError: OnErrorSkip})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(res); got[OutcomeCommitted] != 3 || got[OutcomeFailed] != 1 || res.Rows[1].Outcome != OutcomeFailed ||
		!strings.Contains(res.Rows[1].Reason, "Email row2@example.org already exists") || res.Rows[1].Step != 3 {
		t.Fatalf("rows %+v; want row 2 failed with the page's message, the others committed", res.Rows)
	}
	// The page's message quotes the row's email: it is in the report,
	// never in the log.
	if n := logHolds(t, js, "already exists"); n > 0 {
		t.Errorf("%d REPLAY events hold the page's message (it quotes a value)", n)
	}
	// The version has passed its check: --yes runs; rows an earlier run
	// committed are skipped, unless --again.
	res, err = run(plan("again", testSkill(false), 4), s, Options{Yes: true, OnError: OnErrorStop})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(res); got[OutcomeSkipped] != 3 || got[OutcomeFailed] != 1 {
		t.Fatalf("second run %+v; want the 3 filed rows skipped and row 2 failing again", res.Rows)
	}
	for email, n := range s.filed {
		if n != 1 {
			t.Errorf("%s filed %d times", email, n)
		}
	}
	// --on-error stop: the rows after a failure are not run.
	delete(s.filed, "row1@example.org")
	s.reject["row1@example.org"] = true
	res, err = run(plan("stop", testSkill(false), 3), s, Options{Yes: true, Again: true, OnError: OnErrorStop})
	if err != nil || res.Rows[0].Outcome != OutcomeFailed || res.Rows[1].Outcome != OutcomeSkipped || !strings.Contains(res.Rows[2].Reason, "stopped at row 1") {
		t.Fatalf("stop on error: %+v, %v", res.Rows, err)
	}
}

// logHolds counts the REPLAY events whose bytes contain s.
func logHolds(t *testing.T, js jetstream.JetStream, s string) int {
	t.Helper()
	ctx := context.Background()
	stream, err := js.Stream(ctx, "REPLAY")
	if err != nil {
		t.Fatal(err)
	}
	info, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && seq > 0; seq++ {
		m, err := stream.GetMsg(ctx, seq)
		if err == nil && strings.Contains(string(m.Data), s) {
			n++
		}
	}
	return n
}

// TestEngineNeverRefilesAnUnconfirmedRow: a row whose submit ran but whose
// check did not hold is unknown, never failed, and no later run files it
// again unless the skill's verify settles it.
func TestEngineNeverRefilesAnUnconfirmedRow(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	dryRun(t, js, false)
	s := newSite()
	s.slow["row2@example.org"] = true
	run := func(p *Plan, o Options) *Result {
		t.Helper()
		stop, err := Serve(ctx, js, p, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		o.JS, o.Plan, o.Executor, o.OnError = js, p, s, OnErrorSkip
		var last [4]int
		o.Progress = func(done, failed, skipped, unknown int) { last = [4]int{done, failed, skipped, unknown} }
		asked := false
		o.Confirm = func(context.Context, []int, []string) (bool, error) { asked = true; return true, nil }
		res, err := Run(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if asked {
			t.Error("the first-run check was asked again for a version that passed it")
		}
		got := outcomes(res)
		if want := [4]int{got[OutcomeCommitted], got[OutcomeFailed], got[OutcomeSkipped], got[OutcomeUnknown]}; last != want {
			t.Errorf("progress said %v at the end; the report says %v", last, want)
		}
		return res
	}

	p := plan("first", testSkill(false), 3)
	res := run(p, Options{Refused: []RowResult{{N: 4, Outcome: OutcomeSkipped, Step: -1, Reason: `refused before the run: row 4 (line 5): parameter email (column "Email") is empty`}}})
	if got := fmt.Sprint(res.Rows[0].Outcome, res.Rows[1].Outcome, res.Rows[2].Outcome, res.Rows[3].Outcome); got != "committedunknowncommittedskipped" || len(res.Rows) != 4 {
		t.Fatalf("first run %+v; want row 2 unknown and row 4 (refused) skipped, in order", res.Rows)
	}
	if !strings.Contains(res.Rows[1].Reason, "may have been filed") {
		t.Errorf("row 2's reason %q does not say it may have been filed", res.Rows[1].Reason)
	}
	// A fresh run without --again: the unknown row is not filed again.
	res = run(plan("second", testSkill(false), 3), Options{Yes: true})
	if res.Rows[1].Outcome != OutcomeUnknown || outcomes(res)[OutcomeSkipped] != 2 {
		t.Fatalf("second run %+v; want rows 1 and 3 skipped, row 2 unknown", res.Rows)
	}
	// With a verify section the site settles it: filed, so not again.
	dryRun(t, js, true)
	res = run(plan("third", testSkill(true), 3), Options{Yes: true})
	if res.Rows[1].Outcome != OutcomeCommitted || !strings.Contains(res.Rows[1].Reason, "verified") {
		t.Fatalf("third run %+v; want row 2 committed, verified on the site", res.Rows)
	}
	if n := s.filed["row2@example.org"]; n != 1 {
		t.Errorf("row 2 filed %d times; want once", n)
	}
}

// TestEngineCheckSkipsARowThatFails: with --on-error skip, a row that
// cannot be filled while the first rows are filled for the person's check
// fails alone; the next ones are shown, and it is in the report once.
func TestEngineCheckSkipsARowThatFails(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	s := newSite()
	s.unfit["row1@example.org"] = true
	p := plan("checkskip", testSkill(false), 4)
	stop, err := Serve(ctx, js, p, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	var shown []int
	yes := func(_ context.Context, rows []int, _ []string) (bool, error) { shown = rows; return true, nil }
	res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Confirm: yes, OnError: OnErrorSkip})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(shown) != "[2 3]" {
		t.Errorf("the person was shown rows %v; want [2 3]", shown)
	}
	if got := outcomes(res); len(res.Rows) != 4 || got[OutcomeFailed] != 1 || got[OutcomeCommitted] != 3 || res.Rows[0].Outcome != OutcomeFailed {
		t.Errorf("rows %+v; want row 1 failed once, the others committed", res.Rows)
	}
}

// TestEngineOpensOnlyWebPages: a row whose cell fills a navigate URL's
// scheme with javascript: or file: fails at that step, before anything is
// opened, and the other rows run.
func TestEngineOpensOnlyWebPages(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	sk := testSkill(false)
	sk.Parameters = append(sk.Parameters, skills.Parameter{Name: "page", Column: "Page", Type: "text"})
	sk.Steps[0].Value = "%page%"
	p := plan("weburl", sk, 3)
	for i, u := range []string{"http://site.test/new", "javascript:alert(document.cookie)", "file:///etc/passwd"} {
		p.Rows[i].Values["page"] = u
	}
	dp := plan("weburl-dry", sk, 2)
	for i := range dp.Rows {
		dp.Rows[i].Values["page"] = "http://site.test/new"
	}
	s := newSite()
	for _, pl := range []*Plan{dp, p} {
		stop, err := Serve(ctx, js, pl, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
	}
	if _, err := Run(ctx, Options{JS: js, Plan: dp, Executor: s, DryRun: true}); err != nil {
		t.Fatal(err)
	}
	res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Yes: true, OnError: OnErrorSkip})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{OutcomeCommitted, OutcomeFailed, OutcomeFailed} {
		r := res.Rows[i]
		if r.Outcome != want || (want == OutcomeFailed && !strings.Contains(r.Reason, "only http and https")) {
			t.Errorf("row %d = %+v; want %s", i+1, r, want)
		}
	}
	if len(s.filed) != 1 {
		t.Errorf("filed %v; want only row 1", s.filed)
	}
}

// batchingSite is site with DoBatch: it records the batches it is given,
// and can stop short of a batch's end without saying why.
type batchingSite struct {
	*site
	batches [][]int // each batch's step indexes
	short   bool
}

func (b *batchingSite) DoBatch(ctx context.Context, steps []Step) ([]Outcome, error) {
	var idx []int
	for _, st := range steps {
		idx = append(idx, st.Index)
	}
	b.batches = append(b.batches, idx)
	outs, err := DoEach(ctx, b.site, steps)
	if b.short && len(outs) > 1 {
		outs = outs[:1]
	}
	return outs, err
}

// A run of fields goes to the executor as one command; a field of it that
// fails fails the row at that field, and an executor that leaves a batch
// unfinished without a failure breaks the run rather than skipping a step.
func TestEngineBatchesFields(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	dryRun(t, js, false)
	ctx := context.Background()
	run := func(id string, b *batchingSite) (*Result, error) {
		p := plan(id, testSkill(false), 3)
		stop, err := Serve(ctx, js, p, b, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		return Run(ctx, Options{JS: js, Plan: p, Executor: b, Yes: true, Again: true, OnError: OnErrorSkip})
	}

	b := &batchingSite{site: newSite()}
	b.unfit["row2@example.org"] = true
	res, err := run("batched", b)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.batches) != 3 || fmt.Sprint(b.batches[0]) != "[1 2]" {
		t.Errorf("batches %v; want the two fills of each row as one", b.batches)
	}
	if got := outcomes(res); got[OutcomeCommitted] != 2 || got[OutcomeFailed] != 1 {
		t.Fatalf("outcomes %v", got)
	}
	if r := res.Rows[1]; r.Step != 2 || r.Action != "fill" || !strings.Contains(r.Reason, "read-back failed") {
		t.Errorf("row 2 is %+v; want failed at step index 2, the email", r)
	}
	if b.filed["row2@example.org"] != 0 || b.filed["row1@example.org"] != 1 {
		t.Errorf("filed %v", b.filed)
	}

	short := &batchingSite{site: newSite(), short: true}
	res, err = run("short", short)
	if err == nil || !strings.Contains(err.Error(), "stopped before the command's last step") {
		t.Fatalf("a batch cut short: err %v, report %+v", err, res)
	}
	if len(short.filed) != 0 {
		t.Errorf("filed %v after a batch cut short", short.filed)
	}
}

// tab is another tab on a site: the same records, its own executor.
type tab struct{ *site }

// Rows filed three at a time, through three executors: each once, the
// report whole; a run killed mid-way leaves up to three rows in flight,
// and its resume settles each (verified on the site), filing none twice.
// A row whose dedupe key repeats an earlier row's is that row: skipped.
func TestEngineParallelRows(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	dryRun(t, js, true)
	s := newSite()
	p := plan("parallel", testSkill(true), 30)
	p.Rows[29].Values["email"], p.Rows[29].Key = p.Rows[3].Values["email"], p.Rows[3].Key
	tabs := []Executor{tab{s}, tab{s}}
	serve := func(ctx context.Context) func() {
		var stops []func()
		for i, x := range append([]Executor{s}, tabs...) {
			stop, err := ServeWorker(ctx, js, p, i, x, nil)
			if err != nil {
				t.Fatal(err)
			}
			stops = append(stops, stop)
		}
		return func() {
			for _, stop := range stops {
				stop()
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.crashAt, s.cancel = 12, cancel
	var mu sync.Mutex
	workers := map[int]bool{}
	progress := func(w, row, _, _ int) {
		mu.Lock()
		defer mu.Unlock()
		if row > 0 {
			workers[w] = true
		}
	}
	stop := serve(ctx)
	_, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Others: tabs, Yes: true, StepProgress: progress})
	stop()
	if err == nil {
		t.Fatal("the run went on past its crash")
	}
	if len(workers) != 3 {
		t.Errorf("workers that filed rows: %v; want all three", workers)
	}
	s.crashAt = 0
	ctx = context.Background()
	defer serve(ctx)()
	res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Others: tabs, Resume: true, Yes: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(res); got[OutcomeCommitted] != 29 || got[OutcomeSkipped] != 1 || len(res.Rows) != 30 {
		t.Fatalf("outcomes %v of %d rows; want 29 committed and the repeated row skipped", got, len(res.Rows))
	}
	if r := res.Rows[29]; r.Outcome != OutcomeSkipped || !strings.Contains(r.Reason, "row 4") {
		t.Errorf("row 30 is %+v; want skipped as row 4's record", r)
	}
	for i := 1; i <= 29; i++ {
		if n := s.filed[fmt.Sprintf("row%d@example.org", i)]; n != 1 {
			t.Errorf("row %d filed %d times; want once", i, n)
		}
	}
}

// TestSystematic is --on-error auto's rule: 3 rows in a row that did not
// go through, or 2 unknown ones with no row filed between them, stop the
// run; rows that went through start the count again.
func TestSystematic(t *testing.T) {
	steps := testSkill(false).Steps
	c := func(n int) RowResult { return RowResult{N: n, Outcome: OutcomeCommitted, Step: -1} }
	f := func(n, step int) RowResult {
		return RowResult{N: n, Outcome: OutcomeFailed, Step: step, Action: steps[step].Action}
	}
	u := func(n, step int) RowResult {
		return RowResult{N: n, Outcome: OutcomeUnknown, Step: step, Action: steps[step].Action}
	}
	d := func(n int) RowResult { return RowResult{N: n, Outcome: OutcomeDryRun, Step: -1} }
	for _, tc := range []struct {
		name   string
		filled []RowResult
		want   string // "" goes on
	}{
		{"none yet", nil, ""},
		{"all through", []RowResult{c(1), c(2), c(3)}, ""},
		{"one failure", []RowResult{c(1), f(2, 2)}, ""},
		{"two in a row", []RowResult{c(1), f(2, 2), f(3, 2)}, ""},
		{"failures apart", []RowResult{f(1, 2), f(2, 2), c(3), f(4, 2), f(5, 2), c(6), f(7, 2)}, ""},
		{"three in a row, same step", []RowResult{c(1), c(2), f(3, 2), f(4, 2), f(5, 2)}, `rows 3, 4 and 5 failed in a row at step 3 (fill "Email")`},
		{"three in a row, other steps", []RowResult{f(1, 1), f(2, 2), f(3, 3)}, `rows 1, 2 and 3 failed in a row at steps 2, 3 and 4`},
		{"finished out of order", []RowResult{c(1), f(5, 2), f(3, 2), f(4, 2)}, `rows 3, 4 and 5 failed in a row at step 3 (fill "Email")`},
		{"the last three of more", []RowResult{f(1, 1), f(2, 2), f(3, 2), f(4, 2)}, `rows 2, 3 and 4 failed in a row at step 3`},
		{"one unknown", []RowResult{c(1), u(2, 3), c(3)}, ""},
		{"unknowns apart", []RowResult{u(1, 3), c(2), u(3, 3), c(4), u(5, 3)}, ""},
		{"unknown then failed", []RowResult{c(1), u(2, 3), f(3, 2)}, ""},
		{"two unknowns in a row", []RowResult{c(1), u(2, 3), u(3, 3)}, `rows 2 and 3 may have been filed but could not be confirmed at step 4 (submit), with no row filed between them (check them on the site)`},
		{"two unknowns, a failure between", []RowResult{c(1), u(2, 3), f(3, 2), u(4, 3)}, `rows 2, 3 and 4 failed in a row at steps 4, 3 and 4 (rows 2 and 4 may have been filed: check them)`},
		{"unknown among three", []RowResult{f(1, 2), u(2, 3), f(3, 2)}, `(row 2 may have been filed: check it)`},
		{"dry runs go through", []RowResult{f(1, 2), f(2, 2), d(3), f(4, 2)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := systematic(tc.filled, steps)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("systematic = %q; want %q", got, tc.want)
			}
		})
	}
	// The check of the first rows stops when its first two rows failed at
	// the same step; otherwise a failed row is passed over.
	for _, tc := range []struct {
		name  string
		tried []RowResult
		want  string
	}{
		{"first failed", []RowResult{f(1, 2)}, ""},
		{"first two the same way", []RowResult{f(1, 2), f(2, 2)}, `rows 1 and 2 both failed at step 3 (fill "Email")`},
		{"first two other ways", []RowResult{f(1, 1), f(2, 2)}, ""},
		{"then a third", []RowResult{f(1, 1), f(2, 2), f(3, 2)}, "rows 1, 2 and 3 failed in a row"},
		{"one shown between", []RowResult{f(1, 2), d(2), f(3, 2)}, ""},
		{"not the first two", []RowResult{d(1), f(2, 2), f(3, 2)}, ""},
	} {
		t.Run("check/"+tc.name, func(t *testing.T) {
			got := checkStops(tc.tried, steps)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("checkStops = %q; want %q", got, tc.want)
			}
		})
	}
}

// autoRig runs plans of the test skill against one site, its version's dry
// run passed.
type autoRig struct {
	t  *testing.T
	js jetstream.JetStream
	s  *site
}

func newAutoRig(t *testing.T) *autoRig {
	_, _, js := natstest.Start(t, "m_test")
	dryRun(t, js, false)
	return &autoRig{t: t, js: js, s: newSite()}
}

func (a *autoRig) run(p *Plan, o Options) (*Result, error) {
	a.t.Helper()
	ctx := context.Background()
	stop, err := Serve(ctx, a.js, p, a.s, nil)
	if err != nil {
		a.t.Fatal(err)
	}
	defer stop()
	o.JS, o.Plan, o.Executor, o.Yes, o.Again = a.js, p, a.s, true, true
	return Run(ctx, o)
}

// outcomeList is the report's outcomes in row order, as a string.
func outcomeList(res *Result) string {
	var out []string
	for _, r := range res.Rows {
		out = append(out, fmt.Sprintf("%d:%s", r.N, r.Outcome))
	}
	return strings.Join(out, " ")
}

// TestEngineAutoGoesOnPastFailures: by default a row that failed provably
// unfiled does not stop the run: every other row is filed.
func TestEngineAutoGoesOnPastFailures(t *testing.T) {
	a := newAutoRig(t)
	a.s.unfit["row2@example.org"], a.s.unfit["row5@example.org"] = true, true
	res, err := a.run(plan("auto-on", testSkill(false), 7), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomeList(res); got != "1:committed 2:failed 3:committed 4:committed 5:failed 6:committed 7:committed" || res.Stopped != "" {
		t.Fatalf("report %s, stopped %q; want rows 2 and 5 failed, the others committed", got, res.Stopped)
	}
	if !res.Failed() {
		t.Error("a run with failed rows reports none")
	}
	// An unknown row alone does not stop it either.
	a.s.unfit = map[string]bool{}
	a.s.slow["row3@example.org"] = true
	res, err = a.run(plan("auto-unknown", testSkill(false), 5), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomeList(res); got != "1:committed 2:committed 3:unknown 4:committed 5:committed" {
		t.Fatalf("report %s; want row 3 unknown, the others committed", got)
	}
}

// TestEngineAutoStopsOnSystematicFailures: three rows in a row failing
// stop the run, the rows not run say why and how to resume, and the resume
// files them, each once.
func TestEngineAutoStopsOnSystematicFailures(t *testing.T) {
	a := newAutoRig(t)
	for _, n := range []int{3, 4, 5} {
		a.s.unfit[fmt.Sprintf("row%d@example.org", n)] = true
	}
	p := plan("auto-stop", testSkill(false), 8)
	resume := "reprise replay new-customer --rows data.csv --resume auto-stop"
	res, err := a.run(p, Options{ResumeCommand: resume})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomeList(res); got != "1:committed 2:committed 3:failed 4:failed 5:failed 6:skipped 7:skipped 8:skipped" {
		t.Fatalf("report %s; want rows 3-5 failed and the run stopped there", got)
	}
	want := `not run: rows 3, 4 and 5 failed in a row at step 3 (fill "Email"): the failures look systematic; fix the cause, then resume the run: ` + resume
	for _, r := range res.Rows[5:] {
		if r.Reason != want || r.Hint != HintOnErrorAuto {
			t.Errorf("row %d's reason %q (hint %q); want %q (hint %q)", r.N, r.Reason, r.Hint, want, HintOnErrorAuto)
		}
	}
	if res.Stopped != strings.TrimPrefix(want, "not run: ") || res.StoppedHint != HintOnErrorAuto {
		t.Errorf("Stopped %q (hint %q); want the same reason and hint", res.Stopped, res.StoppedHint)
	}
	if len(a.s.filed) != 2 {
		t.Errorf("filed %v; want rows 1 and 2 only", a.s.filed)
	}
	// The cause fixed, the resume files the failed rows and the rest.
	a.s.unfit = map[string]bool{}
	res, err = a.run(p, Options{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(res); got[OutcomeCommitted] != 8 || res.Stopped != "" {
		t.Fatalf("resume: %s, stopped %q; want every row committed", outcomeList(res), res.Stopped)
	}
	for i := 1; i <= 8; i++ {
		if n := a.s.filed[fmt.Sprintf("row%d@example.org", i)]; n != 1 {
			t.Errorf("row %d filed %d times; want once", i, n)
		}
	}
	// Without the command, the run's id.
	a.s = newSite()
	a.s.unfit["row1@example.org"], a.s.unfit["row2@example.org"], a.s.unfit["row3@example.org"] = true, true, true
	res, err = a.run(plan("auto-stop-2", testSkill(false), 4), Options{})
	if err != nil || !strings.HasSuffix(res.Rows[3].Reason, "resume the run: auto-stop-2, with the same skill and CSV") {
		t.Fatalf("%v: row 4 is %+v; want the run's id to resume", err, res.Rows[3])
	}
}

// TestEngineAutoStopsOnUnknowns: a second row that may have been filed,
// with no row filed since the first, stops the run; the resume reports
// them unknown again, never files them blindly.
func TestEngineAutoStopsOnUnknowns(t *testing.T) {
	a := newAutoRig(t)
	a.s.slow["row2@example.org"], a.s.slow["row3@example.org"], a.s.unfit["row4@example.org"] = true, true, true
	p := plan("auto-unknowns", testSkill(false), 6)
	res, err := a.run(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomeList(res); got != "1:committed 2:unknown 3:unknown 4:skipped 5:skipped 6:skipped" {
		t.Fatalf("report %s; want the run stopped at row 3", got)
	}
	if r := res.Rows[3].Reason; !strings.HasPrefix(r, "not run: rows 2 and 3 may have been filed but could not be confirmed at step 4 (submit), with no row filed between them (check them on the site): the failures look systematic") {
		t.Errorf("row 4's reason %q", r)
	}
	res, err = a.run(p, Options{Resume: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomeList(res); got != "1:committed 2:unknown 3:unknown 4:failed 5:committed 6:committed" || res.Stopped != "" {
		t.Fatalf("resume: %s (stopped %q); want rows 2 and 3 still unknown (counted in no rule), row 4 failing alone, 5-6 filed", got, res.Stopped)
	}
	for email, n := range a.s.filed {
		if n != 1 {
			t.Errorf("%s filed %d times", email, n)
		}
	}
}

// TestEngineStopAndSkipAsBefore: --on-error stop stops at the first
// failed row; --on-error skip goes on past any number.
func TestEngineStopAndSkipAsBefore(t *testing.T) {
	a := newAutoRig(t)
	a.s.unfit["row2@example.org"] = true
	res, err := a.run(plan("on-stop", testSkill(false), 4), Options{OnError: OnErrorStop})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomeList(res); got != "1:committed 2:failed 3:skipped 4:skipped" || res.Rows[3].Reason != "not run: the run stopped at row 2" || res.Rows[3].Hint != HintOnErrorStop {
		t.Fatalf("stop: %s, %+v", got, res.Rows[3])
	}
	for n := 3; n <= 7; n++ {
		a.s.unfit[fmt.Sprintf("row%d@example.org", n)] = true
	}
	res, err = a.run(plan("on-skip", testSkill(false), 8), Options{OnError: OnErrorSkip})
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomes(res); got[OutcomeFailed] != 6 || got[OutcomeCommitted] != 2 || got[OutcomeSkipped] != 0 || res.Stopped != "" {
		t.Fatalf("skip: %s; want rows 2-7 failed, none skipped", outcomeList(res))
	}
	if _, err := a.run(plan("on-what", testSkill(false), 1), Options{OnError: "maybe"}); err == nil || !strings.Contains(err.Error(), "want auto, stop or skip") {
		t.Errorf("OnError maybe: %v", err)
	}
}

// TestEngineAutoParallelStops: with three rows at a time, the run stops
// taking rows once the failures look systematic; the rows under way
// finish, and no more are taken.
func TestEngineAutoParallelStops(t *testing.T) {
	a := newAutoRig(t)
	p := plan("auto-parallel", testSkill(false), 30)
	for n := 4; n <= 30; n++ {
		a.s.unfit[fmt.Sprintf("row%d@example.org", n)] = true
	}
	ctx := context.Background()
	tabs := []Executor{tab{a.s}, tab{a.s}}
	for i, x := range append([]Executor{a.s}, tabs...) {
		stop, err := ServeWorker(ctx, a.js, p, i, x, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
	}
	res, err := Run(ctx, Options{JS: a.js, Plan: p, Executor: a.s, Others: tabs, Yes: true, Again: true})
	if err != nil {
		t.Fatal(err)
	}
	got := outcomes(res)
	// Rows 1-3 filed; at most two failures finish before the last of
	// them, three more stop the run and two more were under way.
	if got[OutcomeCommitted] != 3 || got[OutcomeFailed] < 3 || got[OutcomeFailed] > 7 || got[OutcomeSkipped] != 30-3-got[OutcomeFailed] || len(res.Rows) != 30 {
		t.Fatalf("report %s; want rows 1-3 committed, 3 to 7 failed, the rest not run", outcomeList(res))
	}
	for _, r := range res.Rows {
		if r.Outcome == OutcomeSkipped && !strings.Contains(r.Reason, "the failures look systematic") {
			t.Errorf("row %d: %q", r.N, r.Reason)
		}
	}
}

// TestEngineAutoCheck: under --on-error auto a row that fails while the
// first rows are checked is passed over, as with skip, unless the first
// two fail at the same step: the run stops there, nothing submitted.
func TestEngineAutoCheck(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	check := func(id string, s *site) (*Result, []int, error) {
		p := plan(id, testSkill(false), 5)
		stop, err := Serve(ctx, js, p, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		var shown []int
		no := func(_ context.Context, rows []int, _ []string) (bool, error) { shown = rows; return false, nil }
		res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Confirm: no})
		return res, shown, err
	}
	s := newSite()
	s.unfit["row1@example.org"], s.unfit["Name 2"] = true, true // steps 3 and 2
	if _, shown, err := check("auto-check-1", s); !errors.Is(err, ErrNotConfirmed) || fmt.Sprint(shown) != "[3 4]" {
		t.Errorf("rows 1 and 2 failing at different steps: %v, shown %v; want rows 3 and 4 shown", err, shown)
	}
	s = newSite()
	s.unfit["row1@example.org"], s.unfit["row2@example.org"] = true, true
	res, shown, err := check("auto-check-2", s)
	if err == nil || !strings.Contains(err.Error(), `rows 1 and 2 both failed at step 3 (fill "Email") while being checked`) || shown != nil {
		t.Fatalf("rows 1 and 2 failing the same way: %v, shown %v; want the run stopped", err, shown)
	}
	if got := outcomeList(res); got != "1:failed 2:failed 3:skipped 4:skipped 5:skipped" || len(s.filed) != 0 {
		t.Errorf("report %s, filed %v; want rows 1-2 failed, nothing filed", got, s.filed)
	}
}

// TestFiledByHandStaysFiledByHand: a row the person filed by hand while
// demonstrating, whose cells the skill now refuses (a date column it
// reads otherwise), is reported filed by hand, not refused (issue 33);
// a refused row never filed stays refused.
func TestFiledByHandStaysFiledByHand(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	if err := MarkFiledByHand(ctx, js, "new-customer", "rec_demo1", 1, "k-hand@example.org"); err != nil {
		t.Fatal(err)
	}
	s := newSite()
	p := plan("hand", testSkill(false), 2)
	refused := []RowResult{
		BadRow{N: 3, Err: errors.New("row 3: column Ship by: not a number"), Key: "k-hand@example.org"}.Result(),
		BadRow{N: 4, Err: errors.New("row 4: column Ship by: not a number"), Key: "k-other@example.org"}.Result(),
	}
	stop, err := Serve(ctx, js, p, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	yes := func(context.Context, []int, []string) (bool, error) { return true, nil }
	res, err := Run(ctx, Options{JS: js, Plan: p, Executor: s, Confirm: yes, Refused: refused})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Rows[2]; r.Outcome != OutcomeSkipped || !strings.Contains(r.Reason, "already filed by hand in recording rec_demo1") {
		t.Errorf("row 3, filed by hand: %s %q; want skipped, already filed by hand", r.Outcome, r.Reason)
	}
	if r := res.Rows[3]; r.Outcome != OutcomeSkipped || !strings.HasPrefix(r.Reason, "refused before the run: ") {
		t.Errorf("row 4, never filed: %s %q; want refused before the run", r.Outcome, r.Reason)
	}
	if got := outcomes(res); got[OutcomeCommitted] != 2 {
		t.Errorf("outcomes %v; want rows 1-2 committed", got)
	}
}

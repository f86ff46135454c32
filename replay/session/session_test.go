package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/hub"
	"github.com/reprise-dev/reprise/replay/rows"
	"github.com/reprise-dev/reprise/skills"
)

// form is a fake executor: a web form that files the email typed into it
// on submit.
type form struct {
	mu     sync.Mutex
	email  string
	filed  map[string]int
	closed bool
}

func newForm() *form { return &form{filed: map[string]int{}} }

func (f *form) Do(_ context.Context, st replay.Step) (replay.Outcome, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch st.Action {
	case "fill":
		if st.Label == "Email" {
			f.email = st.Value
		}
	case "submit":
		if st.DryRun {
			return replay.Outcome{OK: true}, nil
		}
		f.filed[f.email]++
		return replay.Outcome{OK: true, Via: replay.ViaDOM, Committed: true}, nil
	}
	return replay.Outcome{OK: true, Via: replay.ViaDOM}, nil
}

func (f *form) Verify(_ context.Context, v skills.Verification) (bool, error) { return false, nil }
func (f *form) Snapshot(context.Context, string) error                        { return nil }
func (f *form) Close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closed = true
	return nil
}

func testSkill() *skills.Skill {
	return &skills.Skill{Version: 1, Name: "new customer",
		Parameters: []skills.Parameter{{Name: "name", Column: "Name", Type: "text"}, {Name: "email", Column: "Email", Type: "email"}},
		DedupeKey:  []string{"email"},
		Steps: []skills.Step{
			{Action: "navigate", Value: "http://site.test/new"},
			{Action: "fill", Label: "Name", Value: "%name%"},
			{Action: "fill", Label: "Email", Value: "%email%"},
			{Action: "submit", Destructive: true, Assert: skills.Conditions{{Kind: "url_changed"}}},
		}}
}

// testRows are n rows; the emails of bad ones are not emails.
func testRows(n int, bad ...int) []rows.Row {
	var rs []rows.Row
	for i := 1; i <= n; i++ {
		email := fmt.Sprintf("row%d@example.org", i)
		for _, b := range bad {
			if b == i {
				email = "not an email"
			}
		}
		rs = append(rs, rows.Row{N: i, Values: map[string]string{"name": fmt.Sprint("Name ", i), "email": email}})
	}
	return rs
}

func config(js jetstream.JetStream, rs []rows.Row) Config {
	sk := testSkill()
	doc, _ := skills.Marshal(sk)
	return Config{SkillID: "new-customer", Skill: sk, Doc: doc, Rows: rs, JS: js,
		Plan: replay.PlanOptions{CSV: fmt.Sprint("csv", len(rs)), Salt: []byte(strings.Repeat("s", 32))}}
}

// run opens, starts and runs a session of cfg on f.
func run(t *testing.T, cfg Config, f *form) (*replay.Result, error) {
	t.Helper()
	ctx := context.Background()
	s, err := Open(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if err := s.Start(ctx, Executor{Build: func(context.Context) (replay.Executor, error) { return f, nil }}); err != nil {
		return nil, err
	}
	return s.Run(ctx, RunOptions{})
}

func outcomes(res *replay.Result) map[string]int {
	m := map[string]int{}
	for _, r := range res.Rows {
		m[r.Outcome]++
	}
	return m
}

func TestSessionFilesEachRowOnce(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	f := newForm()

	cfg := config(js, testRows(3))
	cfg.Yes = true
	if _, err := run(t, cfg, f); !errors.Is(err, replay.ErrNeedsDryRun) {
		t.Fatalf("unattended before a dry run: %v; want replay.ErrNeedsDryRun", err)
	}
	cfg = config(js, testRows(3))
	if _, err := run(t, cfg, f); !errors.Is(err, replay.ErrNeedsConfirmation) {
		t.Fatalf("no one to confirm the first rows: %v; want replay.ErrNeedsConfirmation", err)
	}

	cfg = config(js, testRows(3))
	cfg.DryRun = true
	res, err := run(t, cfg, f)
	if err != nil || outcomes(res)[replay.OutcomeDryRun] != 3 || len(f.filed) != 0 {
		t.Fatalf("dry run: %+v, %v, filed %v; want 3 dry-run rows, none filed", res, err, f.filed)
	}
	if !f.closed {
		t.Error("the session's Close left its executor open")
	}

	cfg = config(js, testRows(3))
	cfg.Yes = true
	if res, err = run(t, cfg, f); err != nil || outcomes(res)[replay.OutcomeCommitted] != 3 {
		t.Fatalf("unattended after the dry run: %+v, %v; want 3 committed", res, err)
	}
	// Another run of the same rows: filed before, so skipped, not filed again.
	cfg = config(js, testRows(4))
	cfg.Yes = true
	if res, err = run(t, cfg, f); err != nil || outcomes(res)[replay.OutcomeCommitted] != 1 || outcomes(res)[replay.OutcomeSkipped] != 3 {
		t.Fatalf("a run over rows filed before: %v, %v; want 1 committed and 3 skipped", outcomes(res), err)
	}
	for i := 1; i <= 4; i++ {
		if n := f.filed[fmt.Sprintf("row%d@example.org", i)]; n != 1 {
			t.Errorf("row %d filed %d times; want once", i, n)
		}
	}
}

func TestSessionRefusals(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	key, err := hub.LoadKey(filepath.Join(t.TempDir(), "hub.key"), true)
	if err != nil {
		t.Fatal(err)
	}
	onHub := func(c Config) Config { c.Hub = &Hub{URLs: "nats://127.0.0.1:1", Key: key}; return c }
	for _, tc := range []struct {
		name  string
		cfg   func(Config) Config
		check func(error) bool
	}{
		{"a skill with a browser section and a question, on a hub", func(c Config) Config {
			c = onHub(c)
			sk := *c.Skill
			sk.Browser = &skills.Browser{Profile: "crm", AllowedDomains: []string{"site.test"}}
			sk.Steps = append(slices.Clone(sk.Steps[:1]), append([]skills.Step{{Action: skills.ActionAsk, Prompt: "the code", As: "code"}}, sk.Steps[1:]...)...)
			c.Skill = &sk
			return c
		}, func(err error) bool { return err == nil }},
		{"a column no step reads", func(c Config) Config { c.Header = []string{"Name", "Email", "Notes"}; return c },
			func(err error) bool {
				var e *ColumnsError
				return errors.As(err, &e) && len(e.Columns) == 1 && e.Columns[0] == "Notes"
			}},
		{"a column the run ignores", func(c Config) Config {
			c.Header, c.Ignore = []string{"Name", "Email", "Notes"}, []string{" Notes"}
			return c
		}, func(err error) bool { return err == nil }},
		{"a bad row when bad rows stop the run", func(c Config) Config { c.Rows, c.OnError = testRows(3, 2), replay.OnErrorStop; return c },
			func(err error) bool {
				var e *RowsError
				return errors.As(err, &e) && e.Stop && len(e.Bad) == 1 && e.Bad[0].N == 2
			}},
		{"a bad row the run skips", func(c Config) Config { c.Rows, c.OnError = testRows(3, 2), replay.OnErrorSkip; return c },
			func(err error) bool { return err == nil }},
		{"every row bad", func(c Config) Config { c.Rows = testRows(2, 1, 2); return c },
			func(err error) bool {
				var e *RowsError
				return errors.As(err, &e) && !e.Stop && len(e.Bad) == 2
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(ctx, tc.cfg(config(js, testRows(3))))
			if !tc.check(err) {
				t.Errorf("Open = %v; want otherwise", err)
			}
			if err == nil {
				if strings.Contains(tc.name, "skips") && len(s.Bad()) != 1 {
					t.Errorf("Bad() = %v; want row 2", s.Bad())
				}
				_ = s.Close()
				_ = s.Close() // twice is safe
			}
		})
	}
}

func TestSessionParallelNeedsTabs(t *testing.T) {
	_, _, js := natstest.Start(t, "m_test")
	ctx := context.Background()
	s, err := Open(ctx, config(js, testRows(2)))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f := newForm()
	err = s.Start(ctx, Executor{Parallel: 2, Build: func(context.Context) (replay.Executor, error) { return f, nil }})
	if !errors.Is(err, ErrParallelDesktop) {
		t.Errorf("Start(2 rows at a time, not a browser) = %v; want ErrParallelDesktop", err)
	}
}

func TestErrorsNameNoFlag(t *testing.T) {
	for _, err := range []error{ErrHubNeedsDryRun, ErrParallelDesktop,
		&RowsError{Bad: []replay.BadRow{{N: 1, Err: errors.New("bad")}}, Stop: true}, &ColumnsError{Columns: []string{"x"}}} {
		if s := err.Error(); strings.Contains(s, "--") || strings.Contains(s, "reprise ") {
			t.Errorf("%T %q names a command or flag; the caller words those", err, s)
		}
	}
}

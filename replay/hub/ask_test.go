package hub

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// inbox is a site whose form takes an upload and an approval code the
// person gives for each row: it keeps what each row's submit carried.
type inbox struct {
	mu     sync.Mutex
	typed  map[int]map[string]string
	stored map[string]map[string]string // email -> what was filed
	paths  []string                     // every upload path a worker gave
}

func (s *inbox) Do(_ context.Context, st replay.Step) (replay.Outcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st.Action {
	case "navigate":
		s.typed[st.Row] = map[string]string{}
	case "fill":
		s.typed[st.Row][st.Label] = st.Value
	case "upload":
		var docs []string
		for p := range strings.Lines(st.Value) {
			p = strings.TrimSpace(p)
			b, err := os.ReadFile(p)
			if err != nil {
				return replay.Outcome{Error: fmt.Sprintf("upload: %v", err)}, nil
			}
			s.paths = append(s.paths, p)
			docs = append(docs, filepath.Base(p)+"="+string(b))
		}
		s.typed[st.Row]["Doc"] = strings.Join(docs, ",")
	case "submit":
		s.stored[s.typed[st.Row]["Email"]] = s.typed[st.Row]
		return replay.Outcome{OK: true, Committed: true}, nil
	}
	return replay.Outcome{OK: true}, nil
}

func (s *inbox) Verify(context.Context, skills.Verification) (bool, error) { return false, nil }
func (s *inbox) Snapshot(context.Context, string) error                    { return nil }
func (s *inbox) Close() error                                              { return nil }

var askingSkill = &skills.Skill{Version: 1, Name: "file an invoice",
	Parameters: []skills.Parameter{{Name: "email", Column: "Email", Type: "email"}, {Name: "doc", Column: "Doc", Type: events.ValueFile}},
	DedupeKey:  []string{"email"},
	Browser:    &skills.Browser{AllowedDomains: []string{"site.test"}},
	Steps: []skills.Step{
		{Action: "navigate", Value: "http://site.test/new"},
		{Action: "fill", Label: "Email", Value: "%email%"},
		{Action: "upload", Label: "Doc", Value: "%doc%"},
		{Action: skills.ActionAsk, Prompt: "the approval code for %email%", As: "code", Timeout: "1m"},
		{Action: "fill", Label: "Code", Value: "%code%"},
		{Action: "submit", Destructive: true, Assert: skills.Conditions{{Kind: "url_changed"}}},
	}}

// A worker's upload files and ask steps reach it through the hub: each
// row's files arrive sealed and are gone from the worker once the row is
// filed (and from the hub once the run ends); each ask reaches the person
// at the run's coordinator, and the answer goes back to the worker
// sealed to it: nothing on the hub reads the answer or the file.
func TestWorkersAskThePersonAndCarryFiles(t *testing.T) {
	_, nc, js := natstest.Start(t, "m_ask")
	key, err := LoadKey(filepath.Join(t.TempDir(), "hub.key"), true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Everything on the hub is watched for the person's answers and the
	// files' contents in the clear.
	var seen sync.Mutex
	var clear []string
	spy, err := nc.Subscribe(">", func(m *nats.Msg) {
		seen.Lock()
		defer seen.Unlock()
		for _, secret := range []string{"CODE-", "invoice body"} {
			if strings.Contains(string(m.Data), secret) {
				clear = append(clear, m.Subject)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = spy.Unsubscribe() }()

	doc, err := skills.Marshal(askingSkill)
	if err != nil {
		t.Fatal(err)
	}
	files := t.TempDir()
	p := &replay.Plan{RunID: "run_ask", SkillID: "invoice", Skill: askingSkill, Digest: replay.Digest(doc), CSV: "ask"}
	for i := 1; i <= 4; i++ {
		path := filepath.Join(files, fmt.Sprintf("invoice-%d.txt", i))
		if err := os.WriteFile(path, []byte(fmt.Sprintf("invoice body %d", i)), 0o600); err != nil {
			t.Fatal(err)
		}
		email := fmt.Sprintf("r%d@example.org", i)
		p.Rows = append(p.Rows, replay.Row{N: i, Values: map[string]string{"email": email, "doc": path}, Key: "k" + email})
	}
	site := &inbox{typed: map[int]map[string]string{}, stored: map[string]map[string]string{}}
	uploads := t.TempDir()
	var workers sync.WaitGroup
	wctx, stopWorkers := context.WithCancel(ctx)
	defer func() { stopWorkers(); workers.Wait() }()
	for i := range 2 {
		w := &Worker{JS: js, Key: key, Name: fmt.Sprint("w", i), Tabs: Fixed{site}, Files: filepath.Join(uploads, fmt.Sprint(i))}
		workers.Go(func() { _ = w.Run(wctx) })
	}
	var mu sync.Mutex
	var asked []string
	run := &Run{JS: js, Key: key, Plan: p, Doc: doc, Ledger: t.TempDir(),
		Ask: func(_ context.Context, q replay.Question) (string, error) {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, fmt.Sprintf("%d: %s", q.Row, q.Prompt))
			return fmt.Sprintf("CODE-%d", q.Row), nil
		}}
	res := runOnHub(t, ctx, run)
	if got := count(res); got[replay.OutcomeCommitted] != 4 {
		t.Fatalf("outcomes %v; want 4 committed: %+v", got, res.Rows)
	}
	if len(asked) != 4 {
		t.Errorf("the person was asked %q; want each row's question once", asked)
	}
	site.mu.Lock()
	defer site.mu.Unlock()
	for i := 1; i <= 4; i++ {
		got := site.stored[fmt.Sprintf("r%d@example.org", i)]
		want := fmt.Sprintf("invoice-%d.txt=invoice body %d", i, i)
		if got["Code"] != fmt.Sprintf("CODE-%d", i) || got["Doc"] != want {
			t.Errorf("row %d filed %q; want its own code and file (%s)", i, got, want)
		}
	}
	for _, path := range site.paths {
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("upload file %s is still on the worker after its row (%v)", path, err)
		}
	}
	obs, err := js.ObjectStore(ctx, events.ObjectsHubFiles)
	if err != nil {
		t.Fatal(err)
	}
	if list, err := obs.List(ctx); err == nil && len(list) > 0 {
		t.Errorf("the hub keeps %d rows' files after the run", len(list))
	}
	seen.Lock()
	defer seen.Unlock()
	if len(clear) > 0 {
		t.Errorf("an answer or a file crossed the hub in the clear on %q", clear)
	}
}

package browser

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// engineSkill is the executor sub-benchmark's steps as a skill, with the
// row's values as parameters.
func engineSkill(base string) *skills.Skill {
	st := func(action, label, value string, sel skills.Selector, rb string) skills.Step {
		s := skills.Step{Action: action, Label: label, Value: value, Selectors: []skills.Selector{sel}}
		if rb != "" {
			s.ReadBack = &skills.ReadBack{Kind: rb, Expect: value}
		}
		return s
	}
	submit := submitStep(6).Step
	return &skills.Skill{Version: 1, Name: "bench", DedupeKey: []string{"email"},
		Parameters: []skills.Parameter{{Name: "first", Column: "First", Type: "text"}, {Name: "email", Column: "Email", Type: "email"}},
		Steps: []skills.Step{
			{Action: "navigate", Value: base + "/customers/new"},
			st("fill", "First Name", "%first%", sel("id", "#first_name"), "value"),
			st("fill", "Email", "%email%", sel("name", "email"), "value"),
			st("select", "Country", "France", sel("id", "#country"), "selected"),
			st("fill", "Customer since", "2024-03-01", sel("label", "Customer since"), "value"),
			st("fill", "Notes", "Prefers email", sel("id", "#notes"), "value"),
			submit,
		}}
}

// BenchmarkRow files one 6-step row of the local form (navigate, 5 fields,
// submit) per iteration: through the executor, with its selector search,
// read-backs and assert, and by hand with plain chromedp actions by id.
func BenchmarkRow(b *testing.B) {
	ex, s := browser(b)
	ctx := context.Background()
	b.Run("executor", func(b *testing.B) {
		steps := []replay.Step{
			{Step: skills.Step{Action: "navigate", Value: s.URL + "/customers/new"}},
			withReadBack(step(1, "fill", "First Name", "Ada", sel("id", "#first_name")), "value", "Ada"),
			withReadBack(step(2, "fill", "Email", "ada@example.com", sel("name", "email")), "value", "ada@example.com"),
			withReadBack(step(3, "select", "Country", "France", sel("id", "#country")), "selected", "France"),
			withReadBack(step(4, "fill", "Customer since", "2024-03-01", sel("label", "Customer since")), "value", "2024-03-01"),
			withReadBack(step(5, "fill", "Notes", "Prefers email", sel("id", "#notes")), "value", "Prefers email"),
			submitStep(6),
		}
		for b.Loop() {
			for _, st := range steps {
				out, err := ex.Do(ctx, st)
				if err != nil || !out.OK {
					b.Fatalf("Do(step %d) = %+v, %v", st.Index, out, err)
				}
			}
		}
	})
	// The whole engine: a run on the REPLAY log, the executor consuming its
	// commands, dedupe marks and commits; one row an iteration.
	b.Run("engine", func(b *testing.B) {
		_, _, js := natstest.Start(b, "m_bench")
		sk := engineSkill(s.URL)
		plan := func(id string, n int) *replay.Plan {
			p := &replay.Plan{RunID: id, SkillID: "bench", Skill: sk, Digest: "d1", CSV: id}
			for i := 1; i <= n; i++ {
				p.Rows = append(p.Rows, replay.Row{N: i, Values: map[string]string{"first": "Ada", "email": fmt.Sprintf("ada%d@example.com", i)}, Key: fmt.Sprint(id, i)})
			}
			return p
		}
		run := func(p *replay.Plan, o replay.Options) {
			stop, err := replay.Serve(ctx, js, p, ex, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer stop()
			o.JS, o.Plan, o.Executor = js, p, ex
			res, err := replay.Run(ctx, o)
			if err != nil || res.Failed() {
				b.Fatalf("run: %v %+v", err, res)
			}
		}
		run(plan("dry", 1), replay.Options{DryRun: true})
		p := plan(fmt.Sprint("bench", b.N), b.N)
		b.ResetTimer()
		run(p, replay.Options{Yes: true})
	})
	b.Run("handwritten", func(b *testing.B) {
		for b.Loop() {
			err := chromedp.Do(ex.tab,
				chromedp.Navigate(s.URL+"/customers/new"),
				chromedp.SendKeys(chromedp.ID("first_name"), "Ada"),
				chromedp.SendKeys(chromedp.CSS("input[name=email]"), "ada@example.com"),
				chromedp.SetValue(chromedp.ID("country"), "fr"),
				chromedp.SetValue(chromedp.ID("since"), "2024-03-01"),
				chromedp.SendKeys(chromedp.ID("notes"), "Prefers email"),
				chromedp.Click(chromedp.CSS("button[type=submit]")),
				chromedp.WaitVisible(chromedp.CSS("h1")),
			)
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

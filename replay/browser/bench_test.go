package browser

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

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

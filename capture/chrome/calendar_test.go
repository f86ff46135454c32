package chrome_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/pages"
)

// TestCalendarDatesRecordedAsIntended plays a person picking dates in
// calendars that date buttons open: the button's click, the month turned
// and the days clicked are no steps of their own; the button's date is
// one fill, its label the field's name and its value ISO, and a range is
// two, its start's and its end's, each marked with its half.
func TestCalendarDatesRecordedAsIntended(t *testing.T) {
	d := demonstrate(t, pages.Calendar)

	click := func(css string) chromedp.Action[chromedp.Void] {
		return chromedp.Steps(chromedp.WaitVisible(chromedp.CSS(css)), chromedp.Click(chromedp.CSS(css)))
	}
	shows := func(id, text string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Poll[bool](fmt.Sprintf(`document.getElementById(%q).textContent === %q`, id, text), chromedp.WithPollingTimeout(5*time.Second))(ctx, t)
			return err
		})
	}
	err := playLogged(d.tab, t,
		chromedp.Navigate(d.url),
		click("#due"), click("#due-pop [aria-label='Next month']"), click("#due-pop [data-iso='2027-04-02']"),
		shows("due", "2 Apr 2027"), chromedp.KeyEvent(kb.Escape),
		click("#stay"), click("#stay-pop [data-iso='2027-03-05']"), click("#stay-pop [aria-label='Next month']"),
		click("#stay-pop [data-iso='2027-04-12']"), shows("stay", "5 Mar 2027 to 12 Apr 2027"),
		clickText("button", "Save"),
	)
	if err != nil {
		t.Fatalf("play the person: %v", err)
	}
	// The range's steps leave the page as its calendar closes, just
	// before Save: on a busy machine they may reach the daemon after a
	// stop sent at once.
	d.waitFills(t, 3)
	rec := d.stop(t)
	var got []string
	for _, s := range rec.Steps {
		if s.Action == events.ActionNavigate || s.Action == events.ActionSubmit || s.Enrichment == nil || s.Enrichment.Label == "Save" {
			continue
		}
		line := s.Action + " " + s.Enrichment.Role + " " + s.Enrichment.Label
		if s.Value != nil {
			line += " = " + s.Value.Raw + " (" + s.Value.Type + ")"
		}
		if s.Enrichment.Half != "" {
			line += " " + s.Enrichment.Half
		}
		got = append(got, line)
	}
	want := []string{
		"fill button Due date = 2027-04-02 (date)",
		"fill button Stay = 2027-03-05 (date) start",
		"fill button Stay = 2027-04-12 (date) end",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

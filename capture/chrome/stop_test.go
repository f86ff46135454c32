package chrome_test

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/paired"
)

// TestStopTakesTheFieldBeingTyped: a recording that stops while the
// person is still in a field they typed into keeps that field's step (it
// is sent when focus leaves the field, which it never did).
func TestStopTakesTheFieldBeingTyped(t *testing.T) {
	d := demonstrate(t, `<!doctype html><title>Note</title><form><label>Name <input id="name"></label> <label>Note <input id="note"></label></form>`)
	err := playLogged(d.tab, t,
		chromedp.Navigate(d.url),
		chromedp.WaitVisible(chromedp.CSS("#name")),
		chromedp.Click(chromedp.CSS("#name")), chromedp.KeyEvent("Ada"),
		chromedp.Click(chromedp.CSS("#note")), chromedp.KeyEvent("call back"),
	)
	if err != nil {
		t.Fatalf("play the person: %v", err)
	}
	// A person stops later than the worker hears of the step.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, err := paired.WorkerState(d.tab)
		if err == nil && st["held"] == float64(1) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the worker never said it holds the field's step: %v %v", st, err)
		}
	}
	rec := d.stop(t)
	var fills []string
	for _, s := range rec.Steps {
		if s.Action == events.ActionFill && s.Enrichment != nil {
			fills = append(fills, s.Enrichment.Label)
		}
	}
	if len(fills) != 2 || fills[0] != "Name" || fills[1] != "Note" {
		t.Fatalf("recorded fills %q; want Name, then Note (still being typed in at the stop)", fills)
	}
}

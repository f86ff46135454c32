package chrome_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/pages"
)

// clickWith clicks, with the mouse, the visible element matching css whose
// text is text, holding the modifier keys down.
func clickWith(css, text string, mods chromedp.Modifier) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		sel := fmt.Sprintf(`[...document.querySelectorAll(%q)].find((e) => e.textContent.trim() === %q)`, css, text)
		if _, err := chromedp.Poll[bool](sel+` ? `+sel+`.checkVisibility() : false`, chromedp.WithPollingTimeout(5*time.Second))(ctx, t); err != nil {
			return fmt.Errorf("no visible %s reads %q: %w", css, text, err)
		}
		// A list that redraws as it filters (a tag picker's suggestions)
		// replaces its nodes: a node read a moment before the click may be
		// gone by then, and is read again.
		for tries := 1; ; tries++ {
			i, err := chromedp.Evaluate[int](fmt.Sprintf(`[...document.querySelectorAll(%q)].findIndex((e) => e.textContent.trim() === %q)`, css, text))(ctx, t)
			if err != nil {
				return err
			}
			nodes, err := chromedp.Nodes(chromedp.CSSAll(css))(ctx, t)
			if err != nil || i < 0 || i >= len(nodes) {
				return fmt.Errorf("no %s reads %q: %v", css, text, err)
			}
			_, err = chromedp.MouseClickNode(nodes[i], chromedp.ButtonModifiers(mods))(ctx, t)
			if err == nil || tries == 3 || !strings.Contains(err.Error(), "Could not find node") {
				return err
			}
		}
	})
}

// slowClick clicks the first element matching css as a person does: the
// button held down a moment, long enough for the page's timers (and the
// recorder's, on the focus leaving a field) to run before it comes up.
func slowClick(css string) chromedp.Action[chromedp.Void] {
	return slowClickOn(fmt.Sprintf(`document.querySelector(%q)`, css), css)
}

// slowClickText is slowClick on the element matching css whose text is
// text.
func slowClickText(css, text string) chromedp.Action[chromedp.Void] {
	return slowClickOn(fmt.Sprintf(`[...document.querySelectorAll(%q)].find((e) => e.textContent.trim() === %q)`, css, text), css+" "+text)
}

func slowClickOn(el, what string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		at, err := chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => { const r = %s.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`, el))(ctx, t)
		if err != nil {
			return fmt.Errorf("find %s: %w", what, err)
		}
		press := func(typ input.DispatchMouseEventType) chromedp.Action[chromedp.Void] {
			return chromedp.MouseEvent(typ, at[0], at[1], chromedp.Button("left"), chromedp.ClickCount(1))
		}
		if _, err := press(chromedp.MousePressed)(ctx, t); err != nil {
			return err
		}
		held := `new Promise((r) => setTimeout(() => setTimeout(r, 50), 0))`
		if _, err := chromedp.Evaluate[any](held, chromedp.EvalAwaitPromise)(ctx, t); err != nil {
			return err
		}
		_, err = press(chromedp.MouseReleased)(ctx, t)
		return err
	})
}

// TestSetsAndDatesRecordedAsIntended plays a person through every control
// that holds a set and a date in sections: each is one step whose value is
// what it holds after the person's clicks and keys (a set one item per
// line, marked multiple; the date as ISO), whatever it held by default.
func TestSetsAndDatesRecordedAsIntended(t *testing.T) {
	d := demonstrate(t, pages.Sets)

	err := playLogged(d.tab, t,
		chromedp.Navigate(d.url),
		chromedp.WaitVisible(chromedp.CSS("#colors")),
		clickText("#colors option", "Red"), clickWith("#colors option", "Blue", chromedp.ModifierCtrl),
		clickText("[role=option]", "Mon"), clickText("[role=option]", "Tue"), clickText("[role=option]", "Thu"),
		// Each box held down a moment: the recorder's timers run while
		// the pointer is on a label, which takes no focus, and the group
		// is still one step.
		slowClickText("label", "Wash"), slowClickText("label", "Dry"), slowClickText("label", "Iron"),
		chromedp.Click(chromedp.CSS("#tags")), chromedp.KeyEvent("Fra"), clickText("#tags-list [role=option]", "Fragile"),
		chromedp.KeyEvent("Pri"), clickText("#tags-list [role=option]", "Priority"),
		slowClick(".chip .tag-remove"), // Gift, there by default
		chromedp.Click(chromedp.CSS("#ship [data-type=month]")), chromedp.KeyEvent("03"), chromedp.KeyEvent("15"), chromedp.KeyEvent("2027"),
		// Save: every field's step goes before it. (Save itself is held for
		// what follows it, so it may come after the stop: not this test's.)
		clickText("button", "Save"),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Poll[bool](`document.querySelector("#ship [data-type=year]").getAttribute("aria-valuenow") === "2027"`, chromedp.WithPollingTimeout(5*time.Second))(ctx, t)
			return err
		}),
	)
	if err != nil {
		t.Fatalf("play the person: %v", err)
	}
	// The date's step leaves the page with Save's: on a busy machine it
	// may reach the daemon after a stop sent at once.
	d.waitFills(t, 1)
	rec := d.stop(t)
	var got []string
	for _, s := range rec.Steps {
		if s.Action == events.ActionNavigate || s.Action == events.ActionSubmit || s.Action == events.ActionClick || s.Enrichment == nil {
			continue
		}
		line := s.Action + " " + s.Enrichment.Role + " " + s.Enrichment.Label
		if s.Value != nil {
			line += " = " + strings.ReplaceAll(s.Value.Raw, "\n", "|") + " (" + s.Value.Type + ")"
		}
		if s.Enrichment.Multiple {
			line += " multiple"
		}
		got = append(got, line)
	}
	want := []string{
		"select listbox Colors = Red|Blue (enum) multiple",
		"select listbox Days = Mon|Thu (enum) multiple",
		"select group Services = Wash|Dry (enum) multiple",
		"select combobox Tags = Fragile|Priority (enum) multiple",
		"fill group Ship by = 2027-03-15 (date)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("recorded steps:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

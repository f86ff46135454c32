package zoo

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// browserPage is a test's hands and eyes on one tab.
type browserPage struct {
	t   *testing.T
	ctx context.Context
}

func openPage(t *testing.T, site *Site, path, ready string) browserPage {
	p := browserPage{t, tab(t)}
	p.do(visit(site.URL()+path, ready))
	return p
}

func (p browserPage) do(steps ...act) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatal(err)
	}
}

// want polls until the expression, as a string, is want.
func (p browserPage) want(expr, want string) {
	p.t.Helper()
	var got string
	var err error
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got, err = chromedp.Run(p.ctx, chromedp.Evaluate[string]("String("+expr+")")); err == nil && got == want {
			return
		}
	}
	p.t.Fatalf("%s = %q (%v); want %q", expr, got, err, want)
}

// TestARIAWidgets: no native input inside any ARIA widget (nor a hidden one
// in its form), and each is operable by keyboard as its APG pattern says.
func TestARIAWidgets(t *testing.T) {
	site := Serve()
	t.Cleanup(site.Close)
	noNative := func(p browserPage, widgets ...string) {
		for _, w := range widgets {
			p.want(fmt.Sprintf(`document.querySelectorAll(%s).length > 0 && [...document.querySelectorAll(%s)].every(w => !w.querySelector('input, select, textarea'))`, jsq(w), jsq(w)), "true")
		}
		p.want(`document.querySelectorAll('input[type=hidden]').length`, "0")
	}
	t.Run("radiogroup, checkbox, switch", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/aria-choices/new", "#email")
		noNative(p, "[role=radiogroup]", "[role=checkbox]", "[role=switch]")
		radio := func(i int) string { return fmt.Sprintf(`document.querySelectorAll('[role=radio]')[%d]`, i) }
		p.do(click("#email"), press(kb.Tab)) // into the group: its only tab stop
		p.want(`document.activeElement === `+radio(0), "true")
		p.do(press(kb.ArrowRight))
		p.want(radio(1)+`.getAttribute('aria-checked') + (document.activeElement === `+radio(1)+`)`, "truetrue")
		p.want(radio(0)+`.getAttribute('aria-checked') + `+radio(0)+`.tabIndex`, "false-1")
		p.do(press(kb.ArrowLeft), press(kb.ArrowLeft)) // wraps to the last
		p.want(radio(2)+`.getAttribute('aria-checked')`, "true")
		p.do(press(kb.Tab)) // leaves the group for the checkbox
		p.want(`document.activeElement.getAttribute('role')`, "checkbox")
		p.do(press(" "))
		p.want(`document.querySelector('[role=checkbox]').getAttribute('aria-checked')`, "true")
		p.do(press(" "))
		p.want(`document.querySelector('[role=checkbox]').getAttribute('aria-checked')`, "false")
		p.do(press(kb.Tab), press(" "))
		p.want(`document.activeElement.getAttribute('role') + document.activeElement.getAttribute('aria-checked')`, "switchtrue")
		p.do(press(kb.Enter))
		p.want(`document.querySelector('[role=switch]').getAttribute('aria-checked')`, "false")
	})
	t.Run("listbox", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/listbox/new", "#email")
		noNative(p, "[role=listbox]")
		sel := `(lb => lb.querySelector('[aria-selected=true]').textContent + '|' + (lb.getAttribute('aria-activedescendant') === lb.querySelector('[aria-selected=true]').id))(document.querySelector('[role=listbox]'))`
		p.do(click("#email"), press(kb.Tab))
		p.want(sel, "Amsterdam|true") // focus selects the first option
		p.do(press(kb.ArrowDown))
		p.want(sel, "Athens|true")
		p.do(press(kb.End))
		p.want(sel, "Zürich|true")
		p.want(`(lb => lb.scrollTop > 0)(document.querySelector('[role=listbox]'))`, "true")
		p.do(press(kb.Home))
		p.want(sel, "Amsterdam|true")
		p.do(press("l"))
		p.want(sel, "Lagos|true")
		p.do(press("l"))
		p.want(sel, "Lisbon|true")
		p.do(press(kb.ArrowUp))
		p.want(sel, "Lagos|true")
		p.do(press("si")) // quick letters spell a label's start
		p.want(sel, "Singapore|true")
	})
	t.Run("select-only combobox", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/combobox-select/new", "#street")
		noNative(p, "[role=combobox]", "[role=listbox]")
		combo := `document.querySelector('[role=combobox]')`
		p.do(click("#street"), press(kb.Tab))
		p.want(`document.activeElement === `+combo, "true")
		p.do(press(kb.ArrowDown))
		p.want(combo+`.getAttribute('aria-expanded') + document.querySelector('[role=listbox]').checkVisibility()`, "truetrue")
		p.do(press(kb.ArrowDown))
		p.want(`document.getElementById(`+combo+`.getAttribute('aria-activedescendant')).textContent`, "Two-day")
		p.do(press(kb.Enter))
		p.want(combo+`.textContent + '|' + `+combo+`.getAttribute('aria-expanded')`, "Two-day|false")
		p.do(press(" "), press(kb.ArrowDown), press(kb.Escape)) // Escape closes and keeps the value
		p.want(combo+`.textContent + '|' + `+combo+`.getAttribute('aria-expanded')`, "Two-day|false")
		p.do(press(kb.Enter), press(kb.End), press(" "))
		p.want(combo+`.textContent`, "Freight")
	})
	t.Run("autocomplete combobox", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/autocomplete/new", "#state")
		noNative(p, "#state-list")
		input := `document.getElementById('state')`
		p.do(typeInto("#state", "new"))
		p.want(`[...document.querySelectorAll('#state-list [role=option]')].map(o => o.textContent).join()`,
			"New Hampshire,New Jersey,New Mexico,New York")
		p.want(input+`.getAttribute('aria-expanded')`, "true")
		p.do(press(kb.ArrowDown), press(kb.ArrowDown))
		p.want(`document.getElementById(`+input+`.getAttribute('aria-activedescendant')).textContent`, "New Jersey")
		p.want(`document.activeElement === `+input, "true") // DOM focus stays in the input
		p.do(press(kb.Enter))
		p.want(input+`.value + '|' + `+input+`.getAttribute('aria-expanded') + '|' + document.getElementById('state-list').hidden`, "New Jersey|false|true")
		p.want(`location.pathname`, "/autocomplete/new") // Enter picked; it did not submit
	})
}

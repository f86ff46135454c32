package zoo

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBehaviours: the pages' own behaviours that a replay must live with.
func TestBehaviours(t *testing.T) {
	site := Serve()
	t.Cleanup(site.Close)
	t.Run("phone formats, ZIP takes digits only", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/phone/new", "#phone")
		p.do(typeInto("#phone", "5551234567"), typeInto("#zip", "9a0-2 1b0x"))
		p.want(`document.getElementById('phone').value`, "(555) 123-4567")
		p.want(`document.getElementById('zip').value`, "90210")
		p.do(press(kb.Backspace))
		p.want(`document.getElementById('zip').value`, "9021")
	})
	t.Run("dates", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/dates/new", "#insured_since")
		p.do(typeInto("#insured_since", "0315"))
		p.want(`document.getElementById('insured_since').value`, "03/15/")
		p.do(press("2024"))
		p.want(`document.getElementById('insured_since').value`, "03/15/2024")
		p.do(typeDate("#visit_date", "2026-11-05"))
		p.want(`document.getElementById('visit_date').value`, "2026-11-05")
		p.do(chooseNative("#birth_day", "11"), chooseNative("#birth_month", "June"), chooseNative("#birth_year", "1987"))
		p.want(`['birth_day', 'birth_month', 'birth_year'].map(id => document.getElementById(id).value).join('-')`, "11-6-1987")
	})
	t.Run("confirm dialog: only Confirm submits", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/confirm-dialog/new", "#first_name")
		p.do(typeInto("#first_name", "Ann"), typeInto("#last_name", "Lee"), typeInto("#email", "ann.lee@example.net"),
			clickText("fieldset label", "Phone"), click("#save"), chromedp.WaitVisible(chromedp.CSS("dialog[open]")))
		p.want(`document.querySelector('dialog h2').textContent`, "Create this customer?")
		p.do(clickText("dialog button", "Cancel"), chromedp.WaitNotVisible(chromedp.CSS("dialog")))
		p.do(click("#save"), chromedp.WaitVisible(chromedp.CSS("dialog[open]")), press(kb.Escape), chromedp.WaitNotVisible(chromedp.CSS("dialog")))
		p.want(`location.pathname`, "/confirm-dialog/new")
		if n := len(site.Records("confirm-dialog")); n != 0 {
			t.Fatalf("%d records after Cancel and Escape; want none", n)
		}
		p.do(click("#save"), clickText("dialog button", "Confirm"), awaitDone("#record"))
		if n := len(site.Records("confirm-dialog")); n != 1 {
			t.Fatalf("%d records after Confirm; want 1", n)
		}
	})
	t.Run("autocomplete refuses free text on the page", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/autocomplete/new", "#state")
		p.do(typeInto("#name", "Ann Lee"), typeInto("#email", "ann.lee@example.net"), clickText("fieldset label", "Business"),
			typeInto("#state", "Nevada City"), click(`button[type=submit]`))
		ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
		defer cancel()
		err := chromedp.Do(ctx, awaitDone("#record"))
		if err == nil || !strings.Contains(err.Error(), "State: choose a state from the list") {
			t.Fatalf("submitting a state not in the list: %v; want the page to refuse it", err)
		}
		if n := len(site.Records("autocomplete")); n != 0 {
			t.Fatalf("%d records; want none", n)
		}
	})
	t.Run("save in place answers late, then resets", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/save-in-place/new", "#company")
		p.do(typeInto("#company", "Initech"), typeInto("#contact", "Bill Lumbergh"), typeInto("#email", "bill@initech.example"),
			typeInto("#notes", "Line one\nLine two"))
		start := time.Now()
		p.do(click(`button[type=submit]`))
		p.want(`document.getElementById('saving').hidden + '|' + document.getElementById('banner').hidden`, "false|true")
		p.do(chromedp.WaitVisible(chromedp.CSS("#banner")))
		if took := time.Since(start); took < SaveDelay-100*time.Millisecond {
			t.Errorf("the banner showed after %v; want at least SaveDelay (%v)", took, SaveDelay)
		}
		p.want(`document.getElementById('banner').textContent`, "Customer created")
		p.want(`['company', 'contact', 'email', 'notes'].map(id => document.getElementById(id).value).join('')`, "")
		recs := site.Records("save-in-place")
		if len(recs) != 1 || recs[0].Fields["notes"] != "Line one\nLine two" {
			t.Fatalf("records %v; want one with the notes' line break", recs)
		}
		p.do(typeInto("#company", "N")) // typing the next customer hides the banner
		p.want(`document.getElementById('banner').hidden`, "true")
	})
	t.Run("shuffled changes on every load", func(t *testing.T) {
		t.Parallel()
		p := openPage(t, site, "/shuffled/new", "form")
		look := `[...document.querySelectorAll('label')].map(l => l.textContent + '=' + l.htmlFor + '=' + document.getElementById(l.htmlFor).name).join(';')`
		var loads []string
		for range 3 {
			p.do(visit(site.URL()+"/shuffled/new", "form"))
			s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](look))
			if err != nil {
				t.Fatal(err)
			}
			loads = append(loads, s)
		}
		id := regexp.MustCompile(`=f-[a-z0-9]{6}=x[a-z0-9]{8}$`)
		for _, l := range loads {
			fields := strings.Split(l, ";")
			if len(fields) != 5 {
				t.Fatalf("load %q: want 5 labelled fields", l)
			}
			for _, f := range fields {
				if !id.MatchString(f) {
					t.Errorf("field %q: want a random id f-xxxxxx and a random name", f)
				}
			}
		}
		if loads[0] == loads[1] || loads[1] == loads[2] {
			t.Errorf("two loads showed the same ids: %q", loads)
		}
	})
}

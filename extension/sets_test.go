package extension

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/internal/pages"
)

// TestDOMModelSets reads the controls that hold a set and the date in
// sections of pages.Sets through the model: the unit each control is, the
// set it holds (a tag picker's chips), and the date as ISO.
func TestDOMModelSets(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	if _, err := chromium.Find(); err != nil {
		t.Skip("!!! no Chromium here, the DOM model is NOT tested: " + err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	actx, acancel := remote.NewAllocator(ctx, br.DevTools)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, pages.Sets) }))
	defer site.Close()
	if err := chromedp.Do(bctx, chromedp.Navigate(site.URL)); err != nil {
		t.Fatal(err)
	}
	model := "(() => {\n" + DOMModelJS + "\nreturn RepriseDOM; })()"
	read := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](`((D, $, u) => String(`+expr+`))(`+model+
			`, (s) => document.querySelector(s), (s) => `+model+`.unitOf(document.querySelector(s)))`))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
	for _, tc := range []struct{ expr, want string }{
		{`[u("#colors").how, D.isMulti(u("#colors")), D.chosenSet(u("#colors"))].join()`, "select,true,Green"},
		{`[u("[role=listbox]").how, D.isMulti(u("[role=listbox]")), D.chosenSet(u("[role=listbox]"))].join()`, "listbox,true,Tue"},
		{`[u("fieldset input").how, u("fieldset input").role, D.labelOf(u("fieldset input")), D.isMulti(u("fieldset input")), D.chosenSet(u("fieldset input"))].join()`,
			"checks,group,Services,true,Iron"},
		{`[u("#tags").how, D.isMulti(u("#tags")), D.stateOf(u("#tags"))].join()`, "autocomplete,true,Gift"},
		{`[u("#ship [data-type=day]").kind, D.labelOf(u("#ship [data-type=day]")), u("#ship").el.id].join()`, "date,Ship by,ship"},
		{`D.stateOf(u("#ship"))`, ""},
		{`(() => { for (const [p, v] of [["month", 3], ["day", 15], ["year", 2027]]) { const s = $("#ship [data-type=" + p + "]");
			s.setAttribute("aria-valuenow", v); s.setAttribute("aria-valuetext", String(v)); }
			return D.stateOf(u("#ship")); })()`, "2027-03-15"},
		// A lone box is no group; a quantity spinner is no date.
		{`(() => { const s = document.createElement("span"); s.setAttribute("role", "spinbutton"); s.setAttribute("aria-valuemax", "99");
			$("#f").appendChild(s); return D.unitOf(s).kind; })()`, "range"},
	} {
		if got := read(tc.expr); got != tc.want {
			t.Errorf("%s = %q; want %q", tc.expr, got, tc.want)
		}
	}
}

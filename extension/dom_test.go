package extension

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"

	"github.com/reprise-dev/reprise/internal/chromium"
)

// modelPage holds the cases the DOM model must read as a person would.
const modelPage = `<!doctype html><title>model</title>
<form id="f">
 <label for="a">First name</label><input id="a" name="first">
 <label>E-mail * <input type="email" name="email"></label>
 <input id="input-3f9a0c1d2e" aria-label="Company" name="field_3f9a0c1d">
 <span id="city-l">City</span><input aria-labelledby="city-l" placeholder="e.g. Paris" title="Town">
 <input placeholder="Zip" type="number">
 <fieldset id="plan"><legend>Plan:</legend>
  <label><input type="radio" name="plan" value="basic"> Basic</label>
  <label><input type="radio" name="plan" value="pro" checked> Pro</label>
 </fieldset>
 <p>Contact me by</p>
 <label><input type="radio" name="contact" value="mail"> E-mail</label>
 <label><input type="radio" name="contact" value="tel"> Téléphone</label>
 <select id="country" name="country"><option value="">Choose…</option><option value="QC">Québec</option><option>France</option></select>
 <select id="many" multiple aria-label="Tags"><option>a</option></select>
 <input type="range" aria-label="Volume">
 <button type="button"><span id="inner">Add <b>row</b></span></button>
 <input type="submit" value="Send">
 <div id="sw" role="switch" aria-checked="true" aria-label="Dark mode"></div>
 <button id="press" type="button" aria-pressed="false">Bold</button>
 <div role="radiogroup" aria-label="Tier"><div role="radio" aria-checked="false" data-value="s">Starter</div><div role="radio" aria-checked="true" data-value="g">Growth</div></div>
 <ul role="listbox" id="office" aria-label="Office"><li role="option" id="o1">Berlin</li><li role="option" id="o2" aria-selected="true">Denver</li></ul>
 <div role="combobox" id="svc" aria-controls="svc-list" aria-label="Service">Choose a service</div>
 <div role="listbox" id="svc-list" hidden><div role="option" data-value="std">Standard</div><div role="option" data-value="exp">Express</div></div>
 <input id="state" role="combobox" aria-autocomplete="list" aria-controls="state-list" aria-label="State" value="Nevada">
 <ul role="listbox" id="state-list" hidden></ul>
 <button id="sort" type="button" aria-haspopup="menu" aria-controls="sort-menu" aria-label="Sort order">Newest</button>
 <div role="menu" id="sort-menu" hidden><div role="menuitemradio" aria-checked="true">Newest</div><div role="menuitemradio" aria-checked="false">Oldest</div></div>
 <div id="host"></div>
 <fieldset id="bill"><legend>Billing</legend><label>Name <input id="bn"></label></fieldset>
 <fieldset id="ship"><legend>Shipping</legend><label>Name <input id="sn"></label></fieldset>
</form>
<script>document.getElementById("host").attachShadow({mode: "open"}).innerHTML = '<label for="r">Reference</label><input id="r">';</script>`

// TestDOMModel reads modelPage through the model, in real Chromium, as
// the replayer loads it: inside a function, leaving no global behind.
func TestDOMModel(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser skipped in -short mode")
	}
	read := openModel(t, modelPage)
	for _, tc := range []struct{ expr, want string }{
		// The matching form of option texts and labels.
		{`D.fold("  Québec ")`, "quebec"},
		{`D.fold("E-mail *")`, "e-mail"},
		{`D.fold("Plan :")`, "plan"},
		{`D.same("ÉCOLE  Normale", "ecole normale")`, "true"},
		// Whether a page's text shows a value (the recorder's echo):
		// folded, reformatted, at a word's edge, with its decimal mark.
		{`((has) => ["Difference & Co", "  DIFFERENCE  &  co ", "ada.king@demo.example.org", "555-123-4567", "5551234567", "1234.50", "Québec"].map(has).join())(D.shown(` +
			"`Saved as record 7.\nCompany  Difference &amp; Co\nE-mail ADA.KING@demo.example.org\nPhone (555) 123-4567\nTotal 1,234.50\nProvince québec`" + `.replace("&amp;", "&")))`,
			"true,true,true,true,true,true,true"},
		{`((has) => ["ada", "nada", "Can", "1234.5", "123450", "x1", "", "Ottawa"].map(has).join())(D.shown("Ada lives in Canada; 1,234.50 paid; x1"))`,
			"true,false,false,false,false,false,false,false"},
		// Roles, implicit and explicit.
		{`D.roleOf($("#plan"))`, "radiogroup"},
		{`D.roleOf($("#country"))`, "combobox"},
		{`D.roleOf($("#many"))`, "listbox"},
		{`D.roleOf($("[type=number]"))`, "textbox"},
		{`D.roleOf($("[type=range]"))`, "slider"},
		{`D.roleOf($("#sw"))`, "switch"},
		// Names, from every source, most specific first.
		{`D.nameOf($("#a"))`, "First name"},
		{`D.nameOf($("[name=email]"))`, "E-mail *"},
		{`D.nameOf($("[aria-label=Company]"))`, "Company"},
		{`D.namesOf($("[aria-labelledby=city-l]")).join("|")`, "City|Town|e.g. Paris"},
		{`D.nameOf($("#plan"))`, "Plan:"},
		{`D.nameOf($("#inner").parentElement)`, "Add row"},
		{`D.nameOf($("[type=submit]"))`, "Send"},
		{`D.nameOf(document.getElementById("host").shadowRoot.getElementById("r"))`, "Reference"},
		// The control an event's target belongs to.
		{`D.controlOf($("#inner b")).tagName`, "BUTTON"},
		{`D.controlOf($("#plan label").firstChild.nextSibling).value`, "basic"},
		{`D.controlOf(document.getElementById("host").shadowRoot.querySelector("label").firstChild).id`, "r"},
		{`D.controlOf($("#o1")).id`, "o1"},
		// Groups: their role, label, options and the option chosen.
		{`((u) => [u.how, u.role, D.labelOf(u), D.chosenOf(u).label, D.optionsOf(u).map((o) => o.label + "=" + o.value).join()].join(" "))(D.unitOf($("[value=basic]")))`,
			"radio radiogroup Plan: Pro Basic=basic,Pro=pro"},
		{`((u) => [u.key === $("#plan"), D.unitOf($("#plan")).key === u.key].join())(D.unitOf($("[value=pro]")))`, "true,true"},
		{`((u) => [u.how, D.labelOf(u), D.stateOf(u), u.key === $("[value=mail]")].join(" "))(D.unitOf($("[value=tel]")))`, "radio Contact me by  true"},
		{`D.selectorsOf(D.unitOf($("[value=tel]")), "Contact me by").map((s) => s.strategy + ":" + s.value).slice(0, 3).join(" ")`,
			"name:contact label:Contact me by role+text:radiogroup[name='Contact me by']"},
		{`((u) => [u.how, u.role, D.chosenOf(u).value, D.atDefault(u)].join(" "))(D.unitOf($("#country")))`, "select combobox  true"},
		{`((u) => [u.how, D.labelOf(u), D.stateOf(u), D.optionsOf(u).map((o) => o.value).join()].join(" "))(D.unitOf($("[data-value=s]")))`, "ariaradio Tier Growth s,g"},
		{`((u) => [u.how, D.labelOf(u), D.stateOf(u)].join(" "))(D.unitOf($("#o1")))`, "listbox Office Denver"},
		{`((u) => [u.how, u.role, D.labelOf(u), D.stateOf(u), D.optionsOf(u).length].join(" "))(D.unitOf($("#svc")))`, "combo combobox Service  2"},
		{`((u) => [u.how, u.key === $("#svc")].join(" "))(D.unitOf($("#svc-list [data-value=exp]")))`, "combo true"},
		{`((u) => [u.how, u.role, D.stateOf(u)].join(" "))(D.unitOf($("#state")))`, "autocomplete combobox Nevada"},
		{`((u) => [u.how, u.role, D.labelOf(u), D.stateOf(u), u.key === $("#sort")].join(" "))(D.unitOf($("#sort-menu [aria-checked=false]")))`, "menu menu Sort order Newest true"},
		// Two-state controls.
		{`((u) => [u.kind, u.role, D.stateOf(u)].join(" "))(D.unitOf($("#sw")))`, "toggle switch checked"},
		{`((u) => [u.kind, u.role, D.stateOf(u)].join(" "))(D.unitOf($("#press")))`, "toggle switch unchecked"},
		// A label that repeats is told apart by its container; a unique
		// one needs none.
		{`JSON.stringify(D.containerOf(D.unitOf($("#sn")), "Name", "textbox"))`, `{"role":"group","name":"Shipping"}`},
		{`JSON.stringify(D.containerOf(D.unitOf($("#a")), "First name", "textbox"))`, "null"},
		// Generated ids and names are no selectors.
		{`D.selectorsOf(D.unitOf($("[aria-label=Company]")), "Company").map((s) => s.strategy).join()`, "label,role+text,xpath"},
	} {
		if got := read(tc.expr); got != tc.want {
			t.Errorf("%s = %q; want %q", tc.expr, got, tc.want)
		}
	}
	if got := read(`typeof RepriseDOM + typeof window.RepriseDOM`); got != "undefinedundefined" {
		t.Errorf("the model left a global in the page: %s", got)
	}
}

// TestNoValueInLogs guards a rule about the code: the extension's scripts
// never write to the console, where a field's value could end up.
func TestNoValueInLogs(t *testing.T) {
	files, err := files.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	console := regexp.MustCompile(`\bconsole\.`)
	for _, f := range files {
		if !strings.HasSuffix(f.Name(), ".js") {
			continue
		}
		b, err := os.ReadFile(f.Name())
		if err != nil {
			t.Fatal(err)
		}
		if console.Match(b) {
			t.Errorf("%s writes to the console", f.Name())
		}
	}
}

// openModel opens page in real Chromium and returns a reader of
// expressions over the DOM model, loaded as the replayer loads it (inside a
// function, leaving no global behind): D is the model, $ finds an element
// by CSS, u its unit. Skips loudly where there is no Chromium.
func openModel(t *testing.T, page string) func(expr string) string {
	t.Helper()
	if _, err := chromium.Find(); err != nil {
		t.Skip("!!! no Chromium here, the DOM model is NOT tested: " + err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(br.Close)
	actx, acancel := remote.NewAllocator(ctx, br.DevTools)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, page) }))
	t.Cleanup(site.Close)
	if err := chromedp.Do(bctx, chromedp.Navigate(site.URL)); err != nil {
		t.Fatal(err)
	}
	model := "(() => {\n" + DOMModelJS + "\nreturn RepriseDOM; })()"
	return func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(bctx, chromedp.Evaluate[string](`((D, $, u) => String(`+expr+`))(`+model+
			`, (s) => document.querySelector(s), (s) => `+model+`.unitOf(document.querySelector(s)))`))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return v
	}
}

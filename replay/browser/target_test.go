package browser

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/selector/selectortest"
	"github.com/reprise-dev/reprise/skills"
)

// TestSelectorConformance runs the selector model's suite on its form, as
// a page: the same cases and answers as the desktop executors'.
func TestSelectorConformance(t *testing.T) {
	ex, _ := browser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir("../../selector/selectortest/testdata")))
	defer srv.Close()
	open(t, ex, srv.URL+"/form.html")
	selectortest.Run(t, ex, true)
}

func mustSelector(t *testing.T, text string) *selector.Selector {
	t.Helper()
	s, err := selector.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTargetFirstThenTheRecordedSelectors: a target that names one element
// is used before any recorded selector; one that names two is a miss, and
// the recorded selectors take over, the outcome listing both.
func TestTargetFirstThenTheRecordedSelectors(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/dup")
	st := withReadBack(step(0, "fill", "Name", "Ada", sel("name", "billing_name")), "value", "Ada")
	st.Target = mustSelector(t, `{"role":"text_field","name":"Name","in":{"role":"group","name":"Shipping"}}`)
	out := mustOK(t, ex, st)
	if out.Via != replay.ViaTarget || len(out.Tried) != 1 || out.Tried[0] != (replay.Attempt{Strategy: "target", Matches: 1}) {
		t.Fatalf("outcome %+v; want found by its target alone", out)
	}
	if got := eval[string](t, ex, `document.querySelector("[name=shipping_name]").value`); got != "Ada" {
		t.Fatalf("the shipping name holds %q; the target names it, not the recorded selector's billing field", got)
	}

	st = withReadBack(step(1, "fill", "Name", "Bob", sel("name", "billing_name")), "value", "Bob")
	st.Target = mustSelector(t, `{"role":"text_field","name":"Name*"}`)
	out = mustOK(t, ex, st)
	want := []replay.Attempt{{Strategy: "target", Matches: 2}, {Strategy: "name", Matches: 1}}
	if out.Via != replay.ViaDOM || len(out.Tried) != 2 || out.Tried[0] != want[0] || out.Tried[1] != want[1] {
		t.Fatalf("outcome %+v; want the ambiguous target, then the name selector", out)
	}
}

// TestTargetMissNamesIt: when nothing matches, the failure says what the
// target matched before the recorded selectors.
func TestTargetMissNamesIt(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/dup")
	st := step(0, "fill", "Name", "Secret-Value-7", sel("id", "#nope"))
	st.Target = mustSelector(t, `{"role":"text_field","name":"Name*"}`)
	out := run(t, ex, st)
	if out.OK {
		t.Fatal("Do = OK; want a failure")
	}
	for _, want := range []string{`target {role: "text_field", name: "Name*"}: 2 matches`, "id #nope: 0 matches"} {
		if !strings.Contains(out.Error, want) {
			t.Errorf("Error = %q; want it to contain %q", out.Error, want)
		}
	}
	if strings.Contains(out.Error, "Secret-Value-7") {
		t.Errorf("the error quotes the value: %q", out.Error)
	}
}

// TestTargetInShadowRootAndFrame: the listing reaches into open shadow
// roots and same-origin frames, as the recorded selectors do.
func TestTargetInShadowRootAndFrame(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/shadow")
	for i, c := range []struct{ target, value string }{
		{`{"role":"text_field","name":"Reference"}`, "REF-9"},
		{`{"role":"text_field","near":{"label":"VAT number","side":"right"}}`, "GB999"},
	} {
		st := withReadBack(step(i, "fill", "", c.value), "value", c.value)
		st.Target = mustSelector(t, c.target)
		if out := mustOK(t, ex, st); out.Via != replay.ViaTarget {
			t.Errorf("%s: via %q; want the target", c.target, out.Via)
		}
	}
}

// TestElementsNeverListAPassword: a listing shows fields' values for a
// person, never a secret's.
func TestElementsNeverListAPassword(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/links")
	eval[bool](t, ex, `(() => { document.body.insertAdjacentHTML("beforeend", '<label for="pw">Password</label><input type="password" id="pw" value="hunter2-secret">'); document.getElementById("first_name").value = "Ada"; return true })()`)
	p, err := ex.Elements(t.Context(), 400)
	if err != nil {
		t.Fatal(err)
	}
	var sawName, sawPassword bool
	for _, e := range p.Tree {
		if e.Value == "hunter2-secret" || e.Name == "hunter2-secret" {
			t.Fatalf("the listing holds the password: %+v", e)
		}
		sawName = sawName || e.Role == "text_field" && e.Name == "First Name" && e.Value == "Ada"
		sawPassword = sawPassword || e.Role == "text_field" && e.Name == "Password"
	}
	if !sawName || !sawPassword {
		t.Fatalf("listing %+v; want the named field with its value and the password field without", p.Tree)
	}
}

// TestExpectAndWhen: an expect step holds or fails naming what was seen;
// a when that does not hold skips its step, which then touches nothing.
func TestExpectAndWhen(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/dup")
	expect := func(c skills.Check) replay.Step {
		st := step(0, skills.ActionExpect, "", "")
		st.Expect = &c
		return st
	}
	mustOK(t, ex, expect(skills.Check{Text: "Shipping"}))
	mustOK(t, ex, expect(skills.Check{Element: mustSelector(t, `{"role":"group","name":"Billing"}`)}))
	mustOK(t, ex, expect(skills.Check{Window: "*"}))

	for _, c := range []struct {
		check skills.Check
		want  string
	}{
		{skills.Check{Element: mustSelector(t, `{"role":"text_field","name":"Name*"}`), Within: "300ms"}, `step 1 (expect): element {role: "text_field", name: "Name*"} not seen within 300ms: 2 elements match`},
		{skills.Check{Window: "Invoices", Within: "300ms"}, `window "Invoices" not seen within 300ms: the title was ""`},
		{skills.Check{Text: "Ada Lovelace", Within: "300ms"}, "no visible element shows the text"},
	} {
		st := expect(c.check)
		st.Filled = []string{"Ada Lovelace"} // as if the row filled it
		out := run(t, ex, st)
		if out.OK || !strings.Contains(out.Error, c.want) {
			t.Errorf("expect %s: %+v; want a failure saying %q", c.check, out, c.want)
		}
		if strings.Contains(out.Error, "Ada Lovelace") {
			t.Errorf("the failure quotes the row's value: %q", out.Error)
		}
	}

	fill := withReadBack(step(1, "fill", "Name", "Skipped", sel("name", "billing_name")), "value", "Skipped")
	fill.When = &skills.Check{Text: "Not on this page", Within: "300ms"}
	if out := mustOK(t, ex, fill); !out.Skipped {
		t.Fatalf("outcome %+v; want the step skipped", out)
	}
	if got := eval[string](t, ex, `document.querySelector("[name=billing_name]").value`); got != "" {
		t.Fatalf("a skipped step filled %q", got)
	}
	fill.When = &skills.Check{Text: "Billing"}
	if out := mustOK(t, ex, fill); out.Skipped {
		t.Fatalf("outcome %+v; want the step run, its when holding", out)
	}
}

// TestLeanResolutionAgrees: a step's resolution lists only the roles its
// selector can use, and keeps names between steps; on every conformance
// case it picks the very element (by XPath) the full listing picks, or
// misses the same way.
func TestLeanResolutionAgrees(t *testing.T) {
	ex, _ := browser(t)
	srv := httptest.NewServer(http.FileServer(http.Dir("../../selector/selectortest/testdata")))
	defer srv.Close()
	open(t, ex, srv.URL+"/form.html")
	ctx, stop := ex.bind(t.Context())
	defer stop()
	for _, c := range selectortest.Cases {
		s := mustSelector(t, c.Selector)
		full, want, werr := ex.Resolve(t.Context(), *s)
		lean := readingFor(*s)
		lean.Paths = true
		p, err := ex.elements(ctx, MaxElements, lean)
		if err != nil {
			t.Fatal(err)
		}
		got, gerr := selector.Match(*s, p.Tree)
		switch {
		case (werr == nil) != (gerr == nil):
			t.Errorf("%s: full listing %v, lean %v", c.Name, werr, gerr)
		case werr != nil && selectortest.Check(c, p.Tree, got, gerr) != nil:
			t.Errorf("%s: lean miss %v; full %v", c.Name, gerr, werr)
		case werr == nil && p.Tree[got].Path != full[want].Path:
			t.Errorf("%s: lean picked %s, full %s", c.Name, p.Tree[got].Path, full[want].Path)
		}
	}
}

// TestNamesFollowTheDOM: names kept between resolutions are dropped when
// the page changes, in the document and in a shadow root.
func TestNamesFollowTheDOM(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/shadow")
	ref := mustSelector(t, `{"role":"text_field","name":"Reference"}`)
	if _, _, err := ex.Resolve(t.Context(), *ref); err != nil {
		t.Fatal(err)
	}
	eval[bool](t, ex, `(() => { document.getElementById("host").shadowRoot.querySelector("label").textContent = "Order number"; return true })()`)
	st := withReadBack(step(0, "fill", "", "ORD-1"), "value", "ORD-1")
	st.Target = mustSelector(t, `{"role":"text_field","name":"Order number"}`)
	if out := mustOK(t, ex, st); out.Via != replay.ViaTarget {
		t.Fatalf("after the label changed: %+v; want found by its new name", out)
	}
	st.Target = ref
	if out := run(t, ex, st); out.Via == replay.ViaTarget {
		t.Fatalf("the old name still resolves: %+v", out)
	}
}

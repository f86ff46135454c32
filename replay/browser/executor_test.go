package browser

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

func sel(strategy, value string) skills.Selector {
	return skills.Selector{Strategy: strategy, Value: value}
}

func step(i int, action, label, value string, sels ...skills.Selector) replay.Step {
	return replay.Step{Row: 1, Index: i, Step: skills.Step{Action: action, Label: label, Value: value, Selectors: sels}}
}

func withReadBack(st replay.Step, kind, expect string) replay.Step {
	st.ReadBack = &skills.ReadBack{Kind: kind, Expect: expect}
	return st
}

// run does st and fails the test on a Go error.
func run(t testing.TB, ex *Executor, st replay.Step) replay.Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := ex.Do(ctx, st)
	if err != nil {
		t.Fatalf("Do(step %d %s) error %v", st.Index, st.Action, err)
	}
	return out
}

func mustOK(t testing.TB, ex *Executor, st replay.Step) replay.Outcome {
	t.Helper()
	out := run(t, ex, st)
	if !out.OK {
		t.Fatalf("Do(step %d %s) = %+v; want OK", st.Index, st.Action, out)
	}
	return out
}

func open(t testing.TB, ex *Executor, u string) {
	t.Helper()
	mustOK(t, ex, replay.Step{Step: skills.Step{Action: "navigate", Value: u}})
}

// openPage serves page for the test and opens it; it returns its address.
func openPage(t testing.TB, ex *Executor, page string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	open(t, ex, srv.URL)
	return srv.URL
}

// eval reads the page directly, as the test's own eyes.
func eval[T any](t *testing.T, ex *Executor, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ex.tab, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

func submitStep(i int) replay.Step {
	st := step(i, "submit", "Save", "", sel("role+text", "button[name='Save']"))
	st.Destructive = true
	st.Assert = skills.Conditions{{Kind: skills.CondURLContains, Value: "/customers/42", Timeout: "3s"}}
	return st
}

// The whole form, every kind of field, with read-backs, and a committed submit.
func TestFillForm(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/customers/new")
	steps := []replay.Step{
		withReadBack(step(1, "fill", "First Name", "Ada", sel("id", "#first_name"), sel("name", "first_name")), "value", "Ada"),
		withReadBack(step(2, "fill", "Email", "ada@example.com", sel("name", "email")), "value", "ada@example.com"),
		withReadBack(step(3, "select", "Country", "France", sel("id", "#country")), "selected", "France"),
		withReadBack(step(4, "click", "Terms", "true", sel("label", "Terms")), "checked", "true"),   // unchecked -> click
		withReadBack(step(5, "click", "Newsletter", "true", sel("id", "#news")), "checked", "true"), // already -> no click
		withReadBack(step(6, "click", "Ads", "false", sel("role+text", "checkbox[name='Ads']")), "checked", "false"),
		withReadBack(step(7, "click", "Pro", "", sel("label", "Pro")), "checked", "true"),
		withReadBack(step(8, "fill", "Customer since", "2024-03-01", sel("label", "Customer since:")), "value", "2024-03-01"),
		withReadBack(step(9, "fill", "Notes", "Prefers email\nand calls", sel("id", "#notes")), "value", "Prefers email\nand calls"),
	}
	for _, st := range steps {
		out := mustOK(t, ex, st)
		if out.Via != replay.ViaDOM || out.Selector != 0 || len(out.Tried) != 1 || out.Tried[0].Matches != 1 {
			t.Errorf("Do(step %d) found via %q selector %d tried %+v; want dom, 0, one match", st.Index, out.Via, out.Selector, out.Tried)
		}
	}
	if got := eval[map[string]int](t, ex, "window.clicks"); got["terms"] != 1 || got["news"] != 0 || got["ads"] != 1 {
		t.Errorf("checkbox clicks = %v; want terms 1, news 0 (already checked), ads 1", got)
	}
	if n := eval[int](t, ex, "window.changes"); n != 1 {
		t.Errorf("first_name change events = %d; want 1", n)
	}
	before := s.postCount()
	out := mustOK(t, ex, submitStep(10))
	if !out.Committed {
		t.Errorf("submit: Committed = false; want true")
	}
	if s.postCount() != before+1 {
		t.Fatalf("posts = %d; want %d", s.postCount(), before+1)
	}
	got := s.lastPost()
	want := map[string]string{"first_name": "Ada", "email": "ada@example.com", "country": "fr", "terms": "on", "news": "on",
		"ads": "", "plan": "pro", "since": "2024-03-01", "notes": "Prefers email\r\nand calls"}
	for k, v := range want {
		if got.Get(k) != v {
			t.Errorf("posted %s = %q; want %q", k, got.Get(k), v)
		}
	}
	// Typing replaces what a field held.
	open(t, ex, s.URL+"/dup")
	mustOK(t, ex, step(1, "fill", "Name", "A", sel("name", "billing_name")))
	mustOK(t, ex, withReadBack(step(2, "fill", "Name", "Bo", sel("name", "billing_name")), "value", "Bo"))
	mustOK(t, ex, withReadBack(step(3, "fill", "Name", "", sel("name", "billing_name")), "value", ""))
}

func TestGeneratedIDsFoundByNameOrLabel(t *testing.T) {
	ex, _ := browser(t)
	for load := range 2 {
		open(t, ex, shared.site.URL+"/dynamic")
		out := mustOK(t, ex, withReadBack(step(1, "fill", "Company", "Acme", sel("id", "#input-3f9a0c1d2e"), sel("name", "company")), "value", "Acme"))
		if out.Selector != 1 || out.Tried[0].Matches != 0 {
			t.Errorf("load %d: company found by selector %d, tried %+v; want 1 after id 0 matches", load, out.Selector, out.Tried)
		}
		out = mustOK(t, ex, withReadBack(step(2, "fill", "City", "Paris", sel("id", "#input-3f9a0c1d2f"), sel("label", "city")), "value", "Paris"))
		if out.Selector != 1 {
			t.Errorf("load %d: city found by selector %d; want 1 (label)", load, out.Selector)
		}
	}
}

func TestAmbiguousLabelFallsThrough(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/dup")
	out := mustOK(t, ex, withReadBack(step(1, "fill", "Name", "Grace", sel("label", "Name"), sel("name", "shipping_name")), "value", "Grace"))
	if out.Selector != 1 || out.Tried[0].Matches != 2 || out.Tried[1].Matches != 1 {
		t.Errorf("Do = selector %d tried %+v; want selector 1 after label's 2 matches", out.Selector, out.Tried)
	}
	if v := eval[string](t, ex, `document.querySelector("[name=billing_name]").value`); v != "" {
		t.Errorf("billing name = %q; want it untouched", v)
	}
}

func TestNothingMatchesNamesEverySelector(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/dup")
	st := step(3, "fill", "Name", "Secret-Value-42", sel("id", "#first_name"), sel("label", "Name"), sel("xpath", "/html[1]/body[1]/p[1]"))
	out := run(t, ex, st)
	if out.OK {
		t.Fatalf("Do = OK; want a failure")
	}
	for _, want := range []string{"step 4", "fill", `"Name"`, "id #first_name: 0 matches", "label Name: 2 matches", "xpath /html[1]/body[1]/p[1]: 0 matches"} {
		if !strings.Contains(out.Error, want) {
			t.Errorf("Error = %q; want it to contain %q", out.Error, want)
		}
	}
	if strings.Contains(out.Error, "Secret-Value-42") || out.Via != replay.ViaNone || len(out.Tried) != 3 {
		t.Errorf("Do = %+v; want no value in the error, no via, 3 tried", out)
	}
}

func TestReadBackFailure(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/rewrite")
	out := run(t, ex, withReadBack(step(1, "fill", "SKU", "K-77", sel("label", "SKU")), "value", "K-77"))
	if out.OK || !strings.Contains(out.Error, "read-back failed") || strings.Contains(out.Error, "K-77") {
		t.Errorf("Do = %+v; want a read-back failure without the value", out)
	}
}

func TestServerRejectionShowsPageMessage(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/customers/new")
	mustOK(t, ex, step(1, "fill", "Email", "taken@example.com", sel("label", "Email")))
	st := submitStep(2)
	st.Assert = skills.Conditions{{Kind: skills.CondURLChanged, Timeout: "500ms"}}
	out := run(t, ex, st)
	if out.OK || out.Committed || out.PageMessage != "Email already exists" || !strings.Contains(out.Error, "Email already exists") {
		t.Errorf("Do = %+v; want refused with the page's message", out)
	}
}

func TestDryRunPostsNothing(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/customers/new")
	mustOK(t, ex, step(1, "fill", "First Name", "Dry", sel("id", "#first_name")))
	before := s.postCount()
	st := submitStep(2)
	st.DryRun = true
	out := mustOK(t, ex, st)
	time.Sleep(200 * time.Millisecond)
	if out.Committed || out.Error != "" || s.postCount() != before {
		t.Errorf("dry run = %+v, posts %d -> %d; want OK, not committed, nothing posted", out, before, s.postCount())
	}
}

func TestHiddenElementsNotCounted(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/hidden")
	out := mustOK(t, ex, withReadBack(step(1, "fill", "Code", "C1", sel("id", "#code")), "value", "C1"))
	if out.Tried[0].Matches != 1 {
		t.Errorf("id #code matched %d; want 1 (the display:none twin not counted)", out.Tried[0].Matches)
	}
	for _, id := range []string{"#gone", "#empty"} {
		if out := run(t, ex, step(2, "fill", "", "x", sel("id", id))); out.OK || out.Tried[0].Matches != 0 {
			t.Errorf("fill %s = %+v; want 0 visible matches", id, out)
		}
	}
}

func TestShadowRootAndFrame(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/shadow")
	mustOK(t, ex, withReadBack(step(1, "fill", "Reference", "REF-1", sel("label", "Reference")), "value", "REF-1"))
	mustOK(t, ex, withReadBack(step(2, "fill", "VAT number", "GB123", sel("label", "VAT number")), "value", "GB123"))
	mustOK(t, ex, withReadBack(step(3, "fill", "VAT number", "GB124", sel("xpath", "/html[1]/body[1]/input[1]")), "value", "GB124"))
}

func TestSecretAndUpload(t *testing.T) {
	ex, s := browser(t)
	st := step(1, "fill", "Password", "", sel("id", "#pw"))
	st.Secret = true
	if out := run(t, ex, st); out.OK || !strings.HasPrefix(out.Error, replay.ErrNeedsPerson.Error()) {
		t.Errorf("secret step = %+v; want OK false, Error starting %q", out, replay.ErrNeedsPerson)
	}
	open(t, ex, s.URL+"/upload")
	file := filepath.Join(t.TempDir(), "contract.pdf")
	if err := os.WriteFile(file, []byte("%PDF-1.4"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustOK(t, ex, step(2, "upload", "Contract", file, sel("label", "Contract")))
	if n := eval[string](t, ex, `document.getElementById("doc").files[0].name`); n != "contract.pdf" {
		t.Errorf("uploaded file = %q; want contract.pdf", n)
	}
	if out := run(t, ex, step(3, "upload", "Contract", "relative.pdf", sel("label", "Contract"))); out.OK || strings.Contains(out.Error, "relative.pdf") {
		t.Errorf("upload of a relative path = %+v; want refused without the path", out)
	}
}

// A click that navigates to a slow page: the next step acts on the new
// page, not on the old one that still shows a field with the same id.
func TestClickWaitsForNavigation(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/links")
	mustOK(t, ex, step(1, "click", "Next", "", sel("role+text", "link[name='Next']")))
	mustOK(t, ex, withReadBack(step(2, "fill", "First Name", "Lin", sel("id", "#first_name")), "value", "Lin"))
	if u := eval[string](t, ex, `location.pathname + " " + document.getElementById("first_name").value`); u != "/slow Lin" {
		t.Errorf("after the click the page and its field are %q; want /slow Lin", u)
	}
	wait := step(3, "wait", "", "")
	wait.Wait = &skills.Condition{Kind: skills.CondText, Value: "Step two", Timeout: "1s"}
	mustOK(t, ex, wait)
	assert := step(4, "assert", "", "")
	assert.Assert = skills.Conditions{{Kind: skills.CondElement, Value: "#nope", Timeout: "200ms"}}
	if out := run(t, ex, assert); out.OK || !strings.Contains(out.Error, `the element "#nope" did not hold`) {
		t.Errorf("assert of a missing element = %+v; want a failure naming it", out)
	}
}

func TestVerify(t *testing.T) {
	ex, s := browser(t)
	ctx := context.Background()
	for _, tc := range []struct {
		v    skills.Verification
		want bool
	}{
		{skills.Verification{URL: s.URL + "/customers/ada/view", Expect: skills.Condition{Kind: "text", Value: "Customer ada"}}, true},
		{skills.Verification{URL: s.URL + "/customers/bob/view", Expect: skills.Condition{Kind: "text", Value: "Customer ada", Timeout: "300ms"}}, false},
		{skills.Verification{URL: s.URL + "/dynamic", Expect: skills.Condition{Kind: "element", Value: "input[name=company]"}}, true},
	} {
		got, err := ex.Verify(ctx, tc.v)
		if err != nil || got != tc.want {
			t.Errorf("Verify(%s %s) = %v, %v; want %v", tc.v.URL, tc.v.Expect.Value, got, err, tc.want)
		}
	}
}

func TestSnapshot(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/customers/new")
	path := filepath.Join(t.TempDir(), "row.png")
	if err := ex.Snapshot(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if err != nil || !bytes.HasPrefix(b, []byte("\x89PNG")) || fi.Mode().Perm() != 0o600 {
		t.Errorf("snapshot: %d bytes, mode %v, err %v; want a 0600 PNG", len(b), fi.Mode().Perm(), err)
	}
}

// Attach to a browser someone else started: Close leaves it running.
func TestAttachAndCloseTwice(t *testing.T) {
	_, s := browser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	ex, err := New(ctx, Options{BrowserURL: br.DevTools})
	if err != nil {
		t.Fatal(err)
	}
	open(t, ex, s.URL+"/customers/new")
	mustOK(t, ex, withReadBack(step(1, "fill", "First Name", "Attached", sel("id", "#first_name")), "value", "Attached"))
	if err := ex.Close(); err != nil {
		t.Fatal(err)
	}
	if err := ex.Close(); err != nil {
		t.Errorf("second Close = %v; want nil", err)
	}
	if _, err := ex.Do(ctx, step(2, "fill", "First Name", "x", sel("id", "#first_name"))); !errors.Is(err, ErrClosed) {
		t.Errorf("Do after Close = %v; want ErrClosed", err)
	}
	// The browser still answers.
	ex2, err := New(ctx, Options{BrowserURL: br.DevTools})
	if err != nil {
		t.Fatalf("the attached browser did not survive Close: %v", err)
	}
	open(t, ex2, s.URL+"/dup")
	_ = ex2.Close()
}

func TestLaunchCreatesProfile(t *testing.T) {
	browser(t)
	dir := filepath.Join(t.TempDir(), "a", "profile")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ex, err := New(ctx, Options{ProfileDir: dir, NoSandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ex.Close()
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("profile dir: %v, %v; want 0700", fi, err)
	}
	ex.Close()
	if _, err := ex.Verify(ctx, skills.Verification{URL: "about:blank", Expect: skills.Condition{Kind: "text", Value: "x"}}); !errors.Is(err, ErrClosed) {
		t.Errorf("Verify after Close = %v; want ErrClosed", err)
	}
}

// TestLongValueInsertedWhole: a 20 KB cell lands whole, as a paste would,
// in a one-line input and in a textarea, and reads back exactly.
func TestLongValueInsertedWhole(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/customers/new")
	long := strings.Repeat("lorem ipsum dolor sit amet ", 760)[:20_000]
	mustOK(t, ex, withReadBack(step(1, "fill", "First Name", long, sel("id", "#first_name")), "value", long))
	mustOK(t, ex, withReadBack(step(2, "fill", "Notes", long+"\nend", sel("id", "#notes")), "value", long+"\nend"))
	if n := eval[int](t, ex, "window.changes"); n < 1 {
		t.Errorf("first_name change events = %d; want the field left with a change", n)
	}
}

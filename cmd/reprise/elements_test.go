package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/elements"
	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/replay/browser"
	"github.com/reprise-dev/reprise/selector"
	"github.com/reprise-dev/reprise/skills"
)

// listingOut is `reprise elements --format json`'s object.
type listingOut struct {
	elements.Listing
}

func elementsJSON(t *testing.T, home, stdin string, args ...string) (listingOut, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, append([]string{"--home", home, "elements", "--format", "json"}, args...)...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	var l listingOut
	if jerr := json.Unmarshal(out, &l); jerr != nil {
		t.Fatalf("elements %v printed no JSON object (%v): %s", args, jerr, out)
	}
	return l, err
}

// TestElementsInTheReplayBrowser lists and matches on the page the replay
// browser shows, found through its profile as `reprise replay` leaves it.
func TestElementsInTheReplayBrowser(t *testing.T) {
	t.Parallel()
	if _, err := chromium.Find(); err != nil {
		t.Skip("!!! no Chromium here, `reprise elements --browser` is NOT tested: " + err.Error())
	}
	home := t.TempDir()
	srv := httptest.NewServer(http.FileServer(http.Dir("../../selector/selectortest/testdata")))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	br, err := chromium.Launch(ctx, chromium.Options{ProfileDir: filepath.Join(home, "browser-profile")})
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	// Show the form in the browser's own page, as a replay would.
	ex, err := browser.New(ctx, browser.Options{BrowserURL: br.DevTools, Attach: true})
	if err != nil {
		t.Fatal(err)
	}
	if out, err := ex.Do(ctx, replay.Step{Step: skills.Step{Action: "navigate", Value: srv.URL + "/form.html"}}); err != nil || !out.OK {
		t.Fatalf("navigate: %+v, %v", out, err)
	}
	ex.Close()

	l, err := elementsJSON(t, home, "", "--browser")
	if err != nil || l.Source != "browser" || l.Window != "Selector conformance" || l.Error != nil {
		t.Fatalf("elements --browser = %+v, %v; want the form's page", l, err)
	}
	var sawBox bool
	for _, e := range l.Elements {
		sawBox = sawBox || e.Role == "checkbox" && e.Name == "Gift wrap" && e.Bounds[2] > 0 && e.Path != ""
	}
	if !sawBox {
		t.Fatalf("no checkbox Gift wrap with bounds and path in %+v", l.Elements)
	}

	l, err = elementsJSON(t, home, "", "--browser", "--match", `{"role":"button","name":"Save","in":{"role":"group","name":"Shipping"}}`)
	if err != nil || l.Match == nil || l.Match.Count != 1 || len(l.Elements) != 1 || l.Elements[0].Name != "Save" {
		t.Fatalf("--match one = %+v, %v; want exactly one Save", l, err)
	}
	l, err = elementsJSON(t, home, "role: button\nname: Save\n", "--browser", "--match", "-")
	if err == nil || l.Error == nil || l.Error.Code != "SELECTOR_AMBIGUOUS" || len(l.Elements) != 2 || l.Match.Count != 2 {
		t.Fatalf("--match two = %+v, %v; want ambiguous, both listed, exit 1", l, err)
	}
	l, err = elementsJSON(t, home, "", "--browser-url", br.DevTools, "--match", `{"role":"link","name":"Save"}`)
	if err == nil || l.Error == nil || l.Error.Code != "SELECTOR_NOT_FOUND" || len(l.Elements) != 0 {
		t.Fatalf("--match none = %+v, %v; want SELECTOR_NOT_FOUND, exit 1", l, err)
	}

	// --watch: a listing, another when the page changes, and the end when
	// stdin closes.
	watch := exec.CommandContext(ctx, binary, "--home", home, "elements", "--browser", "--watch")
	stdin, _ := watch.StdinPipe()
	stdout, _ := watch.StdoutPipe()
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	next := func() listingOut {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("--watch printed no more lines: %v", lines.Err())
		}
		var l listingOut
		if err := json.Unmarshal(lines.Bytes(), &l); err != nil {
			t.Fatalf("--watch printed %q: %v", lines.Text(), err)
		}
		return l
	}
	if first := next(); len(first.Elements) == 0 {
		t.Fatalf("--watch's first listing is empty: %+v", first)
	}
	ex, err = browser.New(ctx, browser.Options{BrowserURL: br.DevTools, Attach: true})
	if err != nil {
		t.Fatal(err)
	}
	fill := replay.Step{Step: skills.Step{Action: "fill", Value: "Lyon", Target: &selector.Selector{Role: "text_field", Near: &selector.Near{Label: "City", Side: "right"}, In: &selector.Selector{Role: "group", Name: "Billing"}}}}
	if out, err := ex.Do(ctx, fill); err != nil || !out.OK {
		t.Fatalf("fill Billing City: %+v, %v", out, err)
	}
	ex.Close()
	// The fill types key by key: a listing may show the field half typed
	// ("L"), and a later one shows it whole.
	for seen := 0; ; seen++ {
		changed := next()
		if slices.ContainsFunc(changed.Elements, func(e elements.Element) bool { return e.Value == "Lyon" }) {
			break
		}
		if seen == 10 {
			t.Fatalf("--watch listed the page 10 times after the fill, never with a field holding Lyon: %+v", changed.Elements)
		}
	}
	stdin.Close()
	if err := watch.Wait(); err != nil {
		t.Fatalf("--watch after stdin closed: %v", err)
	}
}

// TestElementsRefusesBadInput: every malformed flag or selector fails with
// INVALID_REQUEST before anything is read.
func TestElementsRefusesBadInput(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--match", `{"role":"button","name":"Save","colour":"red"}`}, "colour"},
		{[]string{"--match", `{"role":"button"}`}, "name, id or near"},
		{[]string{"--limit", "0"}, "--limit 0"},
		{[]string{"--browser", "--at-pointer"}, "--at-pointer"},
		{[]string{"--browser", "--browser-url", "ws://127.0.0.1:1/x"}, "give one"},
		{[]string{"--watch", "--match", `{"role":"button","name":"Save"}`}, "--watch"},
	} {
		l, err := elementsJSON(t, home, "", c.args...)
		if err == nil || l.Error == nil || l.Error.Code != "INVALID_REQUEST" || !strings.Contains(l.Error.Message, c.want) {
			t.Errorf("elements %v = %+v, %v; want INVALID_REQUEST naming %q", c.args, l.Error, err, c.want)
		}
	}
	if _, stderr, err := run(t, home, "elements", "--format", "yaml"); err == nil || !strings.Contains(stderr, `--format "yaml": want text or json`) {
		t.Errorf("--format yaml = %v, %q; want refused", err, stderr)
	}
	if l, err := elementsJSON(t, home, "", "--browser"); err == nil || l.Error == nil || l.Error.Code != "INTERNAL" {
		t.Errorf("--browser with no browser running = %+v, %v; want INTERNAL", l.Error, err)
	}
}

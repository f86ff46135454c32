package browser

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// counted is a local site that counts the requests it gets.
type counted struct {
	*httptest.Server
	hits atomic.Int64
}

func newCounted(h http.Handler) *counted {
	c := &counted{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	return c
}

// onLocalhost is u with its host 127.0.0.1 named localhost: a second
// host of the same machine.
func onLocalhost(u string) string { return strings.Replace(u, "127.0.0.1", "localhost", 1) }

// launch starts an executor of its own with the skill's browser section.
func launch(t *testing.T, b *skills.Browser) *Executor {
	t.Helper()
	browser(t) // skips without Chromium
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ex, err := New(ctx, Options{ProfileDir: t.TempDir(), NoSandbox: true, Skill: b, FindTimeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ex.Close() })
	return ex
}

func TestAllowedDomains(t *testing.T) {
	other := newCounted(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!doctype html><p>elsewhere</p>`)
	}))
	defer other.Close()
	cdn := onLocalhost(other.URL)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>Shop</title>
<script src="%[1]s/lib.js"></script><img src="%[1]s/a.png"><img src="%[1]s/b.png">
<a href="%[1]s/away">Away</a><button onclick="location.href='/hop'">Hop</button>`, cdn)
	})
	mux.HandleFunc("GET /hop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, cdn+"/landed", http.StatusFound) })
	site := newCounted(mux)
	defer site.Close()
	ex := launch(t, &skills.Browser{AllowedDomains: []string{"127.0.0.1"}})

	out := mustOK(t, ex, replay.Step{Step: skills.Step{Action: "navigate", Value: site.URL + "/"}})
	want := "allowed_domains blocked 3 requests: localhost (3)"
	if len(out.Notes) != 1 || out.Notes[0] != want {
		t.Errorf("notes = %q; want %q", out.Notes, want)
	}
	if n := other.hits.Load(); n != 0 {
		t.Fatalf("the host outside the list got %d requests", n)
	}
	out = run(t, ex, replay.Step{Index: 1, Step: skills.Step{Action: "navigate", Value: cdn + "/direct"}})
	if out.OK || out.Error != "step 2 (navigate): localhost is outside the skill's allowed domains; nothing was opened" {
		t.Errorf("navigate outside = %+v", out)
	}
	out = run(t, ex, step(2, "click", "Away", "", sel("role+text", "link[name='Away']")))
	if out.OK || !strings.Contains(out.Error, "the page left the allowed domains for localhost") {
		t.Errorf("a link outside = %+v", out)
	}
	open(t, ex, site.URL+"/")
	out = run(t, ex, step(3, "click", "Hop", "", sel("role+text", "button[name='Hop']")))
	if out.OK || !strings.Contains(out.Error, "the page left the allowed domains for localhost") {
		t.Errorf("a redirect outside = %+v", out)
	}
	if n := other.hits.Load(); n != 0 {
		t.Errorf("the host outside the list got %d requests", n)
	}
}

func TestRefusedPages(t *testing.T) {
	var passes atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("GET /busy", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "slow down", http.StatusTooManyRequests) })
	mux.HandleFunc("GET /forbidden", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) })
	mux.HandleFunc("GET /check", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("passed") == "" {
			// A check that passes by itself: it loads the page it stood in for.
			w.Header().Set("cf-mitigated", "challenge")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `<!doctype html><p>Checking your browser</p><script>setTimeout(() => location.replace("/check?passed=1"), 200)</script>`)
			return
		}
		passes.Add(1)
		fmt.Fprint(w, `<!doctype html><p>Welcome</p>`)
	})
	mux.HandleFunc("GET /stuck", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cf-Mitigated", "challenge")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `<!doctype html><p>Verify you are human</p>`)
	})
	s := httptest.NewServer(mux)
	defer s.Close()
	ex, _ := browser(t)

	out := run(t, ex, replay.Step{Step: skills.Step{Action: "navigate", Value: s.URL + "/busy"}})
	if out.OK || !out.Refused || out.Error != "step 1 (navigate): page refused: 127.0.0.1 answered 429" {
		t.Errorf("429 = %+v", out)
	}
	out = run(t, ex, replay.Step{Step: skills.Step{Action: "navigate", Value: s.URL + "/forbidden"}})
	if out.OK || !out.Refused || !strings.Contains(out.Error, "page refused: 127.0.0.1 answered 403") {
		t.Errorf("403 without a body = %+v", out)
	}
	out = run(t, ex, replay.Step{Step: skills.Step{Action: "navigate", Value: s.URL + "/check"}})
	if !out.OK || out.Refused || passes.Load() != 1 {
		t.Errorf("a check that passes = %+v (passed %d)", out, passes.Load())
	}
	defer func(d time.Duration) { challengeWait = d }(challengeWait)
	challengeWait = time.Second
	out = run(t, ex, replay.Step{Step: skills.Step{Action: "navigate", Value: s.URL + "/stuck"}})
	if out.OK || !out.Refused || !strings.Contains(out.Error, "page refused: 127.0.0.1 answered with a bot check (HTTP 403)") {
		t.Errorf("a check that stays = %+v", out)
	}
}

const dialogPage = `<!doctype html><title>Dialogs</title><p id="out"></p>
<button onclick="alert('Saved'); out.textContent += 'alerted;'">Alert</button>
<button onclick="out.textContent += 'confirm=' + confirm('Delete?') + ';'">Confirm</button>
<button onclick="out.textContent += 'prompt=' + prompt('Colour?', 'blue') + ';'">Prompt</button>`

func TestDialogsAccepted(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, dialogPage) }))
	defer s.Close()
	ex, _ := browser(t)
	open(t, ex, s.URL)
	for i, c := range []struct{ button, note string }{
		{"Alert", "accepted an alert dialog"},
		{"Confirm", "accepted a confirm dialog"},
		{"Prompt", "answered a prompt dialog with its default text"},
	} {
		out := mustOK(t, ex, step(i, "click", c.button, "", sel("role+text", "button[name='"+c.button+"']")))
		if len(out.Notes) != 1 || out.Notes[0] != c.note {
			t.Errorf("click %s: notes %q; want %q", c.button, out.Notes, c.note)
		}
	}
	if got := eval[string](t, ex, `document.getElementById("out").textContent`); got != "alerted;confirm=true;prompt=blue;" {
		t.Errorf("page saw %q", got)
	}
	// A confirm the person cancelled in the demonstration is cancelled.
	st := step(3, "click", "Confirm", "", sel("role+text", "button[name='Confirm']"))
	st.Dialog = skills.DialogDismiss
	if out := mustOK(t, ex, st); len(out.Notes) != 1 || out.Notes[0] != "dismissed a confirm dialog" {
		t.Errorf("a dismissed confirm: notes %q", out.Notes)
	}
	if got := eval[string](t, ex, `document.getElementById("out").textContent`); !strings.HasSuffix(got, "confirm=false;") {
		t.Errorf("page saw %q after a dismissal", got)
	}
}

func TestDownloads(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!doctype html><a href="/report">Report</a> <a href="/broken">Broken</a> <a href="/nothing">Nothing</a><p>Home</p>`)
	})
	mux.HandleFunc("GET /nothing", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `<!doctype html><p>No file here</p>`) })
	mux.HandleFunc("GET /report", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="report.csv"`)
		w.Header().Set("Content-Type", "text/csv")
		fmt.Fprint(w, "id,total\n1,42\n")
	})
	mux.HandleFunc("GET /broken", func(w http.ResponseWriter, r *http.Request) {
		// Promises a megabyte and hangs up after a few bytes.
		w.Header().Set("Content-Disposition", `attachment; filename="big.bin"`)
		w.Header().Set("Content-Length", "1048576")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "partial")
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.(*net.TCPConn).SetLinger(0)
			conn.Close()
		}
	})
	s := httptest.NewServer(mux)
	defer s.Close()
	ex, _ := browser(t)
	rowDir := filepath.Join(t.TempDir(), "run", "row-1")
	get := func(i int, link string) replay.Outcome {
		open(t, ex, s.URL)
		st := step(i, "click", link, "", sel("role+text", "link[name='"+link+"']"))
		st.Artifacts, st.Output = rowDir, true
		return run(t, ex, st)
	}
	for i, name := range []string{"report.csv", "report (2).csv"} {
		out := get(i, "Report")
		want := filepath.Join(rowDir, "downloads", name)
		if !out.OK || out.Output != want || len(out.Files) != 1 {
			t.Fatalf("download %d = %+v; want output %s", i+1, out, want)
		}
		if b, err := os.ReadFile(want); err != nil || string(b) != "id,total\n1,42\n" {
			t.Errorf("%s holds %q, %v", name, b, err)
		}
	}
	if out := get(3, "Broken"); out.OK || !strings.Contains(out.Error, "download: a download was cancelled") {
		t.Errorf("a download cut short = %+v", out)
	}
	if out := get(4, "Nothing"); out.OK || !strings.Contains(out.Error, "download: no download began") {
		t.Errorf("an output step that downloads nothing = %+v", out)
	}
}

func TestScreenshotPolicies(t *testing.T) {
	ex, s := browser(t)
	defer func(p string) { ex.shots = p }(ex.shots)
	dir := t.TempDir()
	nav := replay.Step{Step: skills.Step{Action: "navigate", Value: s.URL + "/form"}, Artifacts: dir}
	missing := step(1, "fill", "Nickname", "x", sel("id", "#nickname"))
	missing.Artifacts = dir
	for _, c := range []struct {
		policy string
		want   []string
	}{
		{skills.ShotsNever, nil},
		{skills.ShotsOnFailure, []string{"02-failure.png"}},
		{skills.ShotsEach, []string{"01-navigate.png", "02-failure.png"}},
	} {
		ex.shots = c.policy
		os.RemoveAll(dir)
		mustOK(t, ex, nav)
		if out := run(t, ex, missing); out.OK {
			t.Fatalf("fill of a missing field = %+v", out)
		}
		var got []string
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			got = append(got, e.Name())
			if b, _ := os.ReadFile(filepath.Join(dir, e.Name())); !strings.HasPrefix(string(b), "\x89PNG") {
				t.Errorf("%s is not a PNG", e.Name())
			}
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("policy %s saved %v; want %v", c.policy, got, c.want)
		}
	}
	ex.shots = skills.ShotsFinal
	last := nav
	last.Last = true
	if out := mustOK(t, ex, last); len(out.Files) != 1 || filepath.Base(out.Files[0]) != "final.png" {
		t.Errorf("final: files %v", out.Files)
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"report.csv": "report.csv", "../../etc/passwd": "passwd", `..\..\boot.ini`: "boot.ini",
		"": "download", "..": "download", "a:b?.txt": "a_b_.txt", "tab\there": "tab_here",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q; want %q", in, got, want)
		}
	}
}

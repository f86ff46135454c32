package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/reprise-dev/reprise/internal/flock"
	"github.com/reprise-dev/reprise/store"
)

// expenseSite files expenses with their receipts. Its form loads a
// tracker from a second host (localhost), which the skill does not allow.
type expenseSite struct {
	*httptest.Server
	tracker *httptest.Server
	tracked atomic.Int64

	mu    sync.Mutex
	filed []expense
}

type expense struct {
	title    string
	receipts []string // name:size
}

func newExpenseSite(t *testing.T) *expenseSite {
	s := &expenseSite{}
	s.tracker = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.tracked.Add(1) }))
	t.Cleanup(s.tracker.Close)
	tracker := strings.Replace(s.tracker.URL, "127.0.0.1", "localhost", 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /new", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>New expense</title><script src="%s/t.js"></script>
<form method="post" action="/expenses" enctype="multipart/form-data">
<label for="title">Title</label><input id="title" name="title">
<label for="receipts">Receipts</label><input type="file" id="receipts" name="receipts" multiple>
<button>File</button></form>`, tracker)
	})
	mux.HandleFunc("POST /expenses", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		e := expense{title: r.FormValue("title")}
		for _, fh := range r.MultipartForm.File["receipts"] {
			e.receipts = append(e.receipts, fmt.Sprintf("%s:%d", fh.Filename, fh.Size))
		}
		s.mu.Lock()
		s.filed = append(s.filed, e)
		n := len(s.filed)
		s.mu.Unlock()
		http.Redirect(w, r, fmt.Sprintf("/filed/%d", n), http.StatusSeeOther)
	})
	mux.HandleFunc("GET /filed/{n}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><p>Filed.</p><a href="/confirmation/%s">Confirmation</a>`, r.PathValue("n"))
	})
	mux.HandleFunc("GET /confirmation/{n}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Disposition", `attachment; filename="confirmation.txt"`)
		fmt.Fprintf(w, "expense %s filed\n", r.PathValue("n"))
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// TestReplayUploadsAndKeepsDownloads files expenses with their receipts
// (paths relative to the CSV, one per line, a glob), on a site whose
// tracker on another host is blocked, and keeps each row's confirmation.
func TestReplayUploadsAndKeepsDownloads(t *testing.T) {
	t.Parallel()
	r := newReplayRig(t)
	site := newExpenseSite(t)
	tmpl, err := os.ReadFile(filepath.Join("testdata", "expense-skill.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	r.skill = r.write("expense-skill.yaml", strings.ReplaceAll(string(tmpl), "{{base}}", site.URL))
	for name, size := range map[string]int{"lunch.pdf": 11, "taxi-1.png": 22, "taxi-2.png": 33, "hotel.pdf": 44} {
		p := filepath.Join(r.dir, "receipts", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	csv := r.write("expenses.csv", "Title,Receipt\n"+
		"Lunch,receipts/lunch.pdf\n"+
		"\"Taxi\",receipts/taxi-*.png\n"+
		"Gone,receipts/missing-name.pdf\n"+
		"\"Hotel\",\"receipts/hotel.pdf\nreceipts/lunch.pdf\"\n")
	if _, stderr, err := r.replay(t, "--rows", csv, "--dry-run", "--on-error", "skip"); err != nil {
		t.Fatalf("dry run: %v\n%s", err, stderr)
	}
	report := filepath.Join(r.dir, "report.json")
	out, stderr, err := r.replay(t, "--rows", csv, "--yes", "--on-error", "skip", "--report", report, "--profile", "expenses")
	if err != nil {
		t.Fatalf("replay: %v\n%s\n%s", err, out, stderr)
	}
	want := []expense{
		{"Lunch", []string{"lunch.pdf:11"}},
		{"Taxi", []string{"taxi-1.png:22", "taxi-2.png:33"}},
		{"Hotel", []string{"hotel.pdf:44", "lunch.pdf:11"}},
	}
	site.mu.Lock()
	got := fmt.Sprint(site.filed)
	site.mu.Unlock()
	if got != fmt.Sprint(want) {
		t.Errorf("the site filed %s; want %s", got, fmt.Sprint(want))
	}
	if n := site.tracked.Load(); n != 0 {
		t.Errorf("the tracker outside the allowed domains got %d requests", n)
	}
	if strings.Contains(out+stderr, "missing-name") {
		t.Errorf("a file's name reached the output:\n%s%s", out, stderr)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Rows []struct {
			N       int      `json:"n"`
			Outcome string   `json:"outcome"`
			Reason  string   `json:"reason"`
			Output  string   `json:"output"`
			Files   []string `json:"files"`
			Notes   []string `json:"notes"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	filed := 0
	for _, row := range doc.Rows {
		if row.N == 3 {
			if row.Outcome != "skipped" || !strings.Contains(row.Reason, `parameter receipt (column "Receipt", type file) file 1: does not exist`) {
				t.Errorf("row 3 = %+v; want refused before the run", row)
			}
			continue
		}
		filed++
		body, err := os.ReadFile(row.Output)
		if row.Outcome != "committed" || err != nil || !strings.HasPrefix(string(body), "expense ") ||
			!strings.Contains(row.Output, filepath.Join("runs", "run_")) || filepath.Base(row.Output) != "confirmation.txt" {
			t.Errorf("row %d = %+v (output %q, %v)", row.N, row, body, err)
		}
		if !strings.Contains(strings.Join(row.Notes, "\n"), "allowed_domains blocked 1 requests: localhost (1)") {
			t.Errorf("row %d notes %q; want the tracker blocked", row.N, row.Notes)
		}
		if len(row.Files) != 2 || filepath.Base(row.Files[1]) != "final.png" {
			t.Errorf("row %d files %q; want the download and final.png", row.N, row.Files)
		}
	}
	if filed != 3 {
		t.Errorf("the report has %d filed rows; want 3", filed)
	}

	// A second run on the same profile waits for no one; one while another
	// run holds it is refused, naming that run.
	lock, err := flock.Take(filepath.Join(r.home, "profiles", "expenses", "reprise.lock"), "run run_20261202T000000_0123456789abcdef (pid 1)")
	if err != nil {
		t.Fatal(err)
	}
	_, stderr, err = r.replay(t, "--rows", csv, "--dry-run", "--on-error", "skip", "--profile", "expenses")
	lock.Release()
	if err == nil || !strings.Contains(stderr, "browser profile expenses is in use by run run_20261202T000000_0123456789abcdef (pid 1)") {
		t.Errorf("a held profile: %v\n%s", err, stderr)
	}
}

// TestSecretKeptInTheKeychain: `reprise secret set` keeps a certificate's
// passphrase in the real keychain, where replay reads it by name.
func TestSecretKeptInTheKeychain(t *testing.T) {
	t.Parallel()
	if ok, why := (store.KeyringKeyStore{}).Probe(); !ok {
		t.Skipf("!!! no keychain here (%s): run the tests with scripts/with-keyring (make test does); `reprise secret` is NOT tested", why)
	}
	name := fmt.Sprintf("test-cert-%d", os.Getpid())
	run := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command(binary, args...)
		cmd.Stdin = strings.NewReader(stdin)
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	if out, err := run("correct horse\n", "secret", "set", name); err != nil {
		t.Fatalf("secret set: %v\n%s", err, out)
	}
	defer run("", "secret", "delete", name)
	if v, err := keychainSecret(name); err != nil || v != "correct horse" {
		t.Errorf("keychainSecret = %q, %v", v, err)
	}
	for _, c := range []struct{ stdin, name, want string }{
		{"x\n", "../etc", "use letters, digits"},
		{"\n", name, "the secret is empty"},
		{"", name, "no secret on standard input"},
	} {
		if out, err := run(c.stdin, "secret", "set", c.name); err == nil || !strings.Contains(out, c.want) {
			t.Errorf("secret set %q with %q: %v\n%s; want %q", c.name, c.stdin, err, out, c.want)
		}
	}
	if out, err := run("", "secret", "delete", name); err != nil {
		t.Errorf("secret delete: %v\n%s", err, out)
	}
	if _, err := keychainSecret(name); err == nil || !strings.Contains(err.Error(), "reprise secret set "+name) {
		t.Errorf("a deleted secret: %v", err)
	}
}

package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// store is a site that keeps every form posted to it, so a test judges a
// row by what the site stored, not by what reprise says.
type store struct {
	*httptest.Server
	mu    sync.Mutex
	posts []map[string]string
}

func newStore(t *testing.T, page string) *store {
	t.Helper()
	return newStoreAnswering(t, page, func(map[string]string) string { return `<!doctype html><title>Saved</title><p>Saved</p>` })
}

// newStoreAnswering is a store whose answer to a post is answer's page
// for what it stored: a confirmation page that echoes the record.
func newStoreAnswering(t *testing.T, page string, answer func(stored map[string]string) string) *store {
	t.Helper()
	s := &store{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if err := r.ParseMultipartForm(1 << 20); err != nil {
				_ = r.ParseForm()
			}
			got := map[string]string{}
			for k, v := range r.Form {
				got[k] = strings.Join(v, ",")
			}
			if r.MultipartForm != nil {
				for k, fs := range r.MultipartForm.File {
					for _, f := range fs {
						if f.Filename != "" {
							got[k] = fmt.Sprintf("%s (%d bytes)", f.Filename, f.Size)
						}
					}
				}
			}
			s.mu.Lock()
			s.posts = append(s.posts, got)
			s.mu.Unlock()
			fmt.Fprint(w, answer(got))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *store) stored() []map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]string(nil), s.posts...)
}

// saveStepAsRecorded is the Save button's step as the recorder writes it:
// role and name first, then a CSS selector and the positional XPath.
func saveStepAsRecorded(i int) replay.Step {
	st := replay.Step{Row: 1, Index: i, Step: skills.Step{Action: "submit", Role: "button", Label: "Save", Destructive: true,
		Selectors: []skills.Selector{sel("role+text", "button[name='Save']"), sel("css", "#f button[type=submit]"),
			sel("xpath", "/html[1]/body[1]/form[1]/button[1]")},
		Assert: skills.Conditions{{Kind: skills.CondText, Value: "Saved", Timeout: "3s"}}}}
	return st
}

func textStep(i int, label, id, value string) replay.Step {
	st := withReadBack(step(i, "fill", label, value, sel("id", "#"+id), sel("label", label)), "value", value)
	st.Role = "textbox"
	return st
}

// Pages that change under the replay: each row's outcome is judged by what
// the site stored. No row may be reported committed that the site stored
// otherwise, and no destructive control that is not the step's is pressed.
func TestPagesThatChangeUnderTheReplay(t *testing.T) {
	ex, _ := browser(t)
	big := filepath.Join(t.TempDir(), "scan.pdf")
	small := filepath.Join(t.TempDir(), "note.pdf")
	if err := os.WriteFile(big, make([]byte, 20_000), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(small, []byte("%PDF-1.4 small"), 0o600); err != nil {
		t.Fatal(err)
	}
	name := textStep(0, "Name", "name", "Ada Lovelace")
	email := textStep(1, "Email", "email", "ada@example.com")
	const fields = `<label for="name">Name</label><input id="name" name="name">
<label for="email">Email</label><input id="email" name="email">`

	cases := []struct {
		name   string
		page   string
		answer func(map[string]string) string
		steps  []replay.Step
		// stored is what the site must hold after the row: nil for nothing.
		stored map[string]string
		// failed is a text the row's failure must hold; "" for a commit.
		failed string
		// unsure is a text the failure of a row that was sent but cannot
		// be proved filed must hold (the row is then unknown).
		unsure string
	}{{
		name:   "unchanged",
		page:   `<!doctype html><form id="f" method="post">` + fields + `<button type="submit">Save</button></form>`,
		steps:  []replay.Step{name, email, saveStepAsRecorded(2)},
		stored: map[string]string{"name": "Ada Lovelace", "email": "ada@example.com"},
	}, {
		// (a) Save renamed Submit, and a destructive button inserted
		// before it: the XPath now names Delete everything.
		name: "submit renamed and a delete inserted",
		page: `<!doctype html><form id="f" method="post">` + fields + `
<button type="submit" name="op" value="delete">Delete everything</button><button type="submit" name="op" value="save">Submit</button></form>`,
		steps:  []replay.Step{name, email, saveStepAsRecorded(2)},
		failed: `xpath /html[1]/body[1]/form[1]/button[1]: 1 match, not the step's element (button "Delete everything")`,
	}, {
		// (b) A confirm the replay accepts resets the form after its fields
		// were filled.
		name: "a confirm that resets the form",
		page: `<!doctype html><form id="f" method="post">` + fields + `
<button type="button" id="disc" onclick="if (confirm('Clear the form?')) this.form.reset()">Apply discount</button>
<button type="submit">Save</button></form>`,
		steps: []replay.Step{name, email,
			{Row: 1, Index: 2, Step: skills.Step{Action: "click", Role: "button", Label: "Apply discount", Selectors: []skills.Selector{sel("id", "#disc")}}},
			saveStepAsRecorded(3)},
		failed: `read back right before it, step 1 (fill "Name"), step 2 (fill "Email") no longer hold what was filled`,
	}, {
		// (c) A script drops a file over 10 KB from the input.
		name: "a script that clears a large upload",
		page: `<!doctype html><form id="f" method="post" enctype="multipart/form-data">` + fields + `
<label for="doc">Document</label><input type="file" id="doc" name="doc">
<button type="submit">Save</button></form>
<script>doc.addEventListener("change", () => setTimeout(() => { if (doc.files[0] && doc.files[0].size > 10000) doc.value = ""; }, 0));</script>`,
		steps:  []replay.Step{name, step(1, "upload", "Document", big, sel("id", "#doc")), saveStepAsRecorded(2)},
		failed: `step 2 (upload "Document") no longer holds what was filled`,
	}, {
		name: "a small upload kept",
		page: `<!doctype html><form id="f" method="post" enctype="multipart/form-data">` + fields + `
<label for="doc">Document</label><input type="file" id="doc" name="doc">
<button type="submit">Save</button></form>
<script>doc.addEventListener("change", () => setTimeout(() => { if (doc.files[0] && doc.files[0].size > 10000) doc.value = ""; }, 0));</script>`,
		steps:  []replay.Step{name, step(1, "upload", "Document", small, sel("id", "#doc")), saveStepAsRecorded(2)},
		stored: map[string]string{"name": "Ada Lovelace", "doc": "note.pdf (14 bytes)"},
	}, {
		// (d) The page truncates a value once the person moves on.
		name: "a value truncated after the next field",
		page: `<!doctype html><form id="f" method="post">` + fields + `<button type="submit">Save</button></form>
<script>email.addEventListener("focus", () => { const n = document.getElementById("name"); n.value = n.value.slice(0, 5); });</script>`,
		steps:  []replay.Step{name, email, saveStepAsRecorded(2)},
		failed: `step 1 (fill "Name") no longer holds what was filled`,
	}, {
		name: "a value reformatted after blur",
		page: `<!doctype html><form id="f" method="post"><label for="name">Name</label><input id="name" name="name">
<label for="phone">Phone</label><input id="phone" name="phone"><button type="submit">Save</button></form>
<script>phone.addEventListener("blur", () => { const d = phone.value.replace(/\D/g, ""); phone.value = "(" + d.slice(0,3) + ") " + d.slice(3,6) + "-" + d.slice(6); });</script>`,
		steps:  []replay.Step{name, textStep(1, "Phone", "phone", "5551234567"), saveStepAsRecorded(2)},
		stored: map[string]string{"name": "Ada Lovelace", "phone": "(555) 123-4567"},
	}, {
		// (e) A framework re-renders its input from state that never got
		// the value typed too early: the element is replaced, empty.
		name: "a re-render that drops an early value",
		page: `<!doctype html><form id="f" method="post"><div id="slot"><label for="name">Name</label><input id="name" name="name"></div>
<label for="email">Email</label><input id="email" name="email"><button type="submit">Save</button></form>
<script>email.addEventListener("focus", () => { slot.innerHTML = '<label for="name">Name</label><input id="name" name="name">'; }, { once: true });</script>`,
		steps:  []replay.Step{name, email, saveStepAsRecorded(2)},
		failed: `step 1 (fill "Name") no longer holds what was filled`,
	}, {
		// (g) A confirmation page that shows the record as stored.
		name:   "a confirmation page that echoes the values",
		page:   `<!doctype html><form id="f" method="post">` + fields + `<button type="submit">Save</button></form>`,
		answer: echoPage(func(v string) string { return v }),
		steps:  []replay.Step{name, email, echoed(saveStepAsRecorded(2))},
		stored: map[string]string{"name": "Ada Lovelace", "email": "ada@example.com"},
	}, {
		name:   "a confirmation page that shows another value than was sent",
		page:   `<!doctype html><form id="f" method="post">` + fields + `<button type="submit">Save</button></form>`,
		answer: echoPage(func(v string) string { return strings.ToUpper(v[:1]) + v[1:min(len(v), 8)] }),
		steps:  []replay.Step{name, email, echoed(saveStepAsRecorded(2))},
		unsure: "does not show what the row filled for %name%, %email%",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStore(t, c.page)
			if c.answer != nil {
				s = newStoreAnswering(t, c.page, c.answer)
			}
			open(t, ex, s.URL+"/new")
			var last replay.Outcome
			for _, st := range c.steps {
				last = run(t, ex, st)
				if !last.OK {
					break
				}
			}
			got := s.stored()
			if c.unsure != "" {
				if last.OK || last.Committed || !strings.Contains(last.Error, c.unsure) || last.NotFiled() {
					t.Errorf("the row's outcome = %+v; want it sent, not proved filed, with %q", last, c.unsure)
				}
				if strings.Contains(last.Error, "Ada") || strings.Contains(last.Error, "example.com") {
					t.Errorf("the failure quotes a value: %s", last.Error)
				}
				return
			}
			if c.failed != "" {
				if last.OK || !strings.Contains(last.Error, c.failed) {
					t.Errorf("the row's outcome = %+v; want it failed with %q", last, c.failed)
				}
				if !last.NotFiled() || last.Sent {
					t.Errorf("outcome %+v: want it proved unfiled (watched, nothing sent)", last)
				}
				if len(got) != 0 {
					t.Errorf("the site stored %v; want nothing", got)
				}
				return
			}
			if !last.OK || !last.Committed {
				t.Fatalf("the row's outcome = %+v; want committed", last)
			}
			if len(got) != 1 {
				t.Fatalf("the site stored %d records; want 1", len(got))
			}
			for k, v := range c.stored {
				if got[0][k] != v {
					t.Errorf("stored %s = %q; want %q", k, got[0][k], v)
				}
			}
			if want := len(c.steps) - 1; last.ReadBack != want {
				t.Errorf("fields read back before the submit = %d; want %d", last.ReadBack, want)
			}
			if want := len(c.steps[len(c.steps)-1].Echo); last.Echoed != want {
				t.Errorf("values echoed after the submit = %d; want %d", last.Echoed, want)
			}
		})
	}
}

// echoPage is a confirmation page that shows the stored name and email,
// as shown by show.
func echoPage(show func(string) string) func(map[string]string) string {
	return func(got map[string]string) string {
		return fmt.Sprintf(`<!doctype html><title>Saved</title><h1>Saved</h1><dl><dt>Name</dt><dd>%s</dd><dt>Email</dt><dd>%s</dd></dl>`,
			show(got["name"]), show(got["email"]))
	}
}

// echoed is the Save step with the row's name and email echoed after it,
// as a skill built from demonstrations whose pages showed them has it.
func echoed(st replay.Step) replay.Step {
	st.Echo = []string{"Ada Lovelace", "ada@example.com"}
	st.EchoOf = []string{"%name%", "%email%"}
	return st
}

package zoo

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// TestRefusals: each form refuses what a real site refuses, with a 400 and
// a message a person can read, and stores nothing.
func TestRefusals(t *testing.T) {
	site := Serve()
	t.Cleanup(site.Close)
	for _, f := range Forms() {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			good := demoFields(t, f)
			emailLabel := fieldLabel(f, "email")
			required := ""
			for _, fd := range f.fields {
				if fd.required && fd.name != "email" {
					required = fd.name
					break
				}
			}
			cases := []struct{ field, value, want string }{
				{"email", "ada@", emailLabel + ": enter an address like name@example.com"},
				{required, "", fieldLabel(f, required) + ": this field is required"},
			}
			if f.Name == "autocomplete" {
				cases = append(cases, struct{ field, value, want string }{"state", "Nevada City", "State: choose a state from the list"})
			}
			for _, tc := range cases {
				in := clone(good)
				in[tc.field] = tc.value
				code, body := post(t, site, f, in)
				if code != http.StatusBadRequest || !strings.Contains(body, tc.want) {
					t.Errorf("%s=%q: status %d, body %q; want 400 saying %q", tc.field, tc.value, code, body, tc.want)
				}
				if n := len(site.Records(f.Name)); n != 0 {
					t.Fatalf("%s=%q: %d records stored; want none", tc.field, tc.value, n)
				}
			}
			// The same submission, corrected, is taken.
			if code, body := post(t, site, f, good); code != http.StatusSeeOther && code != http.StatusCreated {
				t.Errorf("the first demonstration: status %d, body %q; want 303 or 201", code, body)
			}
		})
	}
}

// demoFields is what the first demonstration stores.
func demoFields(t *testing.T, f *Form) map[string]string {
	at := map[string]int{}
	for i, h := range f.Header() {
		at[h] = i
	}
	want, err := expected(f, at, f.Demos()[0])
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range f.Fixed {
		want[k] = v
	}
	return want
}

func fieldLabel(f *Form, name string) string {
	fd, _ := f.fieldNamed(name)
	return fd.label
}

var shuffledInput = regexp.MustCompile(`<label for="(f-[a-z0-9]+)">([^<]+)</label>\s*<(?:input|select) id="f-[a-z0-9]+" name="(x[a-z0-9]+)"`)

// post submits fields the way the form's page does and returns the answer.
func post(t *testing.T, site *Site, f *Form, in map[string]string) (int, string) {
	t.Helper()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	path, form := "/"+f.Name, url.Values{}
	for k, v := range in {
		form.Set(k, v)
	}
	var res *http.Response
	var err error
	switch {
	case f.json:
		b, _ := json.Marshal(in)
		res, err = noFollow.Post(site.URL()+path, "application/json", bytes.NewReader(b))
	case f.Name == "wizard": // page 1 is where name and e-mail are refused
		res, err = noFollow.PostForm(site.URL()+"/wizard/step1", url.Values{"name": {in["name"]}, "email": {in["email"]}})
	case f.Name == "shuffled":
		page, _ := noFollow.Get(site.URL() + f.Path())
		b, _ := io.ReadAll(page.Body)
		page.Body.Close()
		form = url.Values{"form_token": {regexp.MustCompile(`name="form_token" value="(\w+)"`).FindStringSubmatch(string(b))[1]}}
		for _, m := range shuffledInput.FindAllStringSubmatch(string(b), -1) {
			for _, fd := range f.fields {
				if fd.label == m[2] {
					form.Set(m[3], in[fd.name])
				}
			}
		}
		res, err = noFollow.PostForm(site.URL()+path, form)
	default:
		res, err = noFollow.PostForm(site.URL()+path, form)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// uploadPage has the usual ways a site takes files: a single input, a
// multiple one, a drop zone whose click opens its hidden input, and a
// button whose click opens nothing, next to its only input.
const uploadPage = `<!doctype html><title>Receipts</title>
<label for="one">Contract</label><input type="file" id="one">
<label for="many">Receipts</label><input type="file" id="many" multiple>
<div id="zone" role="button" aria-label="Drop files here" style="width:200px;height:60px;border:1px dashed" onclick="hidden.click()">Drop files here
 <input type="file" id="hidden" multiple style="display:none"></div>
<div><button type="button">Attach</button><input type="file" id="near" style="display:none"></div>
<script>
 const names = (id) => Array.from(document.getElementById(id).files).map((f) => f.name + ":" + f.size).join(",");
 window.got = (id) => names(id);
</script>`

func TestUploads(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, uploadPage) }))
	defer s.Close()
	ex, _ := browser(t)
	dir := t.TempDir()
	for _, f := range []string{"a.pdf", "b.pdf"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("%PDF-"+f), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(dir, "a.pdf"), filepath.Join(dir, "b.pdf")
	both := a + "\n" + b
	got := func(id string) string { return eval[string](t, ex, `got("`+id+`")`) }
	open(t, ex, s.URL)
	// The Attach button opens no picker: waited for in full, it is 5 s.
	defer func(d time.Duration) { pickerWait = d }(pickerWait)
	pickerWait = time.Second

	mustOK(t, ex, step(0, "upload", "Contract", a, sel("label", "Contract")))
	if g := got("one"); g != "a.pdf:10" {
		t.Errorf("single input holds %q", g)
	}
	out := run(t, ex, step(1, "upload", "Contract", both, sel("id", "#one")))
	if out.OK || !strings.Contains(out.Error, "the file input takes one file and the row names 2; none was given") || strings.Contains(out.Error, "pdf") {
		t.Errorf("two files into a single input = %+v", out)
	}
	mustOK(t, ex, step(2, "upload", "Receipts", both, sel("label", "Receipts")))
	if g := got("many"); g != "a.pdf:10,b.pdf:10" {
		t.Errorf("multiple input holds %q", g)
	}
	mustOK(t, ex, step(3, "upload", "Drop files here", both, sel("role+text", "button[name='Drop files here']")))
	if g := got("hidden"); g != "a.pdf:10,b.pdf:10" {
		t.Errorf("the drop zone's picker got %q", g)
	}
	mustOK(t, ex, step(4, "upload", "Attach", a, sel("role+text", "button[name='Attach']")))
	if g := got("near"); g != "a.pdf:10" {
		t.Errorf("the button's nearest input holds %q", g)
	}
	out = run(t, ex, step(5, "upload", "Receipts", filepath.Join(dir, "secret-name.pdf"), sel("label", "Receipts")))
	if out.OK || !strings.Contains(out.Error, "file 1: does not exist") || strings.Contains(out.Error, "secret-name") {
		t.Errorf("a missing file = %+v", out)
	}
}

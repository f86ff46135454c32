package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/reprise-dev/reprise/selector"
)

// bigForm is a page of about 400 elements the selector model lists: 40
// fieldsets, each a legend, four labelled fields and a Save button, so
// every field's name repeats forty times and only `in` tells them apart.
func bigForm() string {
	var b strings.Builder
	b.WriteString("<!doctype html><title>Big form</title><form>")
	for g := range 40 {
		fmt.Fprintf(&b, `<fieldset><legend>Section %d</legend>`, g)
		for _, f := range []string{"Name", "Email", "City", "Phone"} {
			fmt.Fprintf(&b, `<label for="f%d-%s">%s</label><input id="f%d-%s">`, g, f, f, g, f)
		}
		b.WriteString(`<button type="button">Save</button></fieldset>`)
	}
	b.WriteString("</form>")
	return b.String()
}

// BenchmarkResolve times one selector resolution on a 400-element page
// (list the page's elements, match, pick the element for the next op),
// on a page unchanged since the last resolution and on one changed before
// each, against a plain querySelector by id, one evaluation from Go.
func BenchmarkResolve(b *testing.B) {
	ex, _ := browser(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, bigForm()) }))
	defer srv.Close()
	open(b, ex, srv.URL)
	ctx := context.Background()
	report := func(b *testing.B, lat []time.Duration) {
		slices.Sort(lat)
		ms := func(q float64) float64 { return float64(lat[int(float64(len(lat)-1)*q)]) / 1e6 }
		b.ReportMetric(ms(0.50), "p50-ms")
		b.ReportMetric(ms(0.99), "p99-ms")
	}
	resolve := func(b *testing.B, cold bool) {
		s := selector.Selector{Role: "text_field", Name: "City", In: &selector.Selector{Role: "group", Name: "Section 37"}}
		cctx, stop := ex.bind(ctx)
		defer stop()
		var lat []time.Duration
		for n := 0; b.Loop(); n++ {
			if cold {
				// A change anywhere in the page: nothing read before is kept.
				b.StopTimer()
				if _, err := chromedp.Run(cctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.body.dataset.n = "%d"; true`, n))); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			start := time.Now()
			f, n, err := ex.findTarget(cctx, s, false, nil)
			lat = append(lat, time.Since(start))
			if err != nil || f.Hit < 0 || n != 1 {
				b.Fatalf("resolve = %+v, %d, %v", f, n, err)
			}
		}
		report(b, lat)
	}
	// A page that did not change since the last step (a static form), and
	// one that did (a page that re-renders on every input).
	b.Run("selector", func(b *testing.B) { resolve(b, false) })
	b.Run("selector-after-change", func(b *testing.B) { resolve(b, true) })
	b.Run("querySelector", func(b *testing.B) {
		cctx, stop := ex.bind(ctx)
		defer stop()
		var lat []time.Duration
		for b.Loop() {
			start := time.Now()
			ok, err := chromedp.Run(cctx, chromedp.Evaluate[bool](`document.querySelector("#f37-City") !== null`))
			lat = append(lat, time.Since(start))
			if err != nil || !ok {
				b.Fatalf("querySelector = %v, %v", ok, err)
			}
		}
		report(b, lat)
	})
}

// TestBigFormResolves keeps the benchmark's page honest: it lists about
// 400 elements and the benchmark's selector names exactly one of them.
func TestBigFormResolves(t *testing.T) {
	ex, _ := browser(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, bigForm()) }))
	defer srv.Close()
	open(t, ex, srv.URL)
	tree, i, err := ex.Resolve(t.Context(), selector.Selector{Role: "text_field", Name: "City", In: &selector.Selector{Role: "group", Name: "Section 37"}})
	if err != nil || len(tree) < 380 || len(tree) > 480 || tree[i].Bounds.Empty() {
		t.Fatalf("resolved %d of %d elements: %v; want one of about 400", i, len(tree), err)
	}
}

package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/selector"
)

func batchOf(t *testing.T, ex *Executor, steps ...replay.Step) []replay.Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	outs, err := ex.DoBatch(ctx, steps)
	if err != nil {
		t.Fatalf("DoBatch: %v", err)
	}
	return outs
}

// A batch fills a run of fields the way the page's handlers expect (focus,
// input, change, blur for each, in order), types what the page only takes
// from keys, goes on after a field that grows the form, and finds a field
// that did not exist when the batch began.
func TestBatchFillsLikeAPerson(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/batch")
	target := func(name string) *selector.Selector { return &selector.Selector{Role: "text_field", Name: name} }
	name := withReadBack(step(1, "fill", "Name", "Ada", sel("id", "#name")), "value", "Ada")
	name.Target = target("Name")
	code := withReadBack(step(2, "fill", "Code", "AB-12", sel("id", "#code")), "value", "AB-12")
	kind := withReadBack(step(3, "select", "Kind", "Company", sel("id", "#kind")), "selected", "Company")
	vat := withReadBack(step(4, "fill", "VAT", "FR123", sel("label", "VAT")), "value", "FR123")
	vat.Target = target("VAT")
	city := withReadBack(step(5, "fill", "City", "Paris", sel("id", "#city")), "value", "Paris")
	outs := batchOf(t, ex, name, code, kind, vat, city)
	if len(outs) != 5 {
		t.Fatalf("%d outcomes: %+v", len(outs), outs)
	}
	for i, o := range outs {
		if !o.OK {
			t.Fatalf("step %d: %+v", i+1, o)
		}
	}
	if outs[0].Via != replay.ViaTarget || outs[3].Via != replay.ViaTarget || outs[4].Via != replay.ViaDOM {
		t.Errorf("via %s %s %s; want target, target, dom", outs[0].Via, outs[3].Via, outs[4].Via)
	}
	got := eval[string](t, ex, `["name", "code", "kind", "vat", "city"].map((id) => document.getElementById(id).value).join("|")`)
	if got != "Ada|AB-12|Company|FR123|Paris" {
		t.Errorf("the form holds %q", got)
	}
	log := eval[string](t, ex, `window.log.filter((e) => e.startsWith("name:")).join(" ")`)
	if log != "name:focus name:input name:change name:blur" {
		t.Errorf("the name field saw %q; want focus, input, change, blur", log)
	}
}

// A field that does not hold the value set, nor the value typed, fails its
// step with the read-back, and the batch stops there.
func TestBatchStopsAtAFieldThatRefuses(t *testing.T) {
	ex, s := browser(t)
	open(t, ex, s.URL+"/rewrite")
	sku := withReadBack(step(1, "fill", "SKU", "123", sel("id", "#sku")), "value", "123")
	after := withReadBack(step(2, "fill", "SKU", "456", sel("id", "#sku")), "value", "456")
	outs := batchOf(t, ex, sku, after)
	if len(outs) != 1 || outs[0].OK || !strings.Contains(outs[0].Error, "read-back failed") {
		t.Fatalf("outcomes %+v; want the first step failed by its read-back, and no second", outs)
	}
}

// A field the recording saw react to keys is typed key by key, so its
// script formats it; set whole, the same field holds the bare digits.
func TestBatchTypesAKeyedField(t *testing.T) {
	ex, s := browser(t)
	for _, keys := range []bool{true, false} {
		open(t, ex, s.URL+"/batch")
		phone := withReadBack(step(1, "fill", "Phone", "5551234567", sel("id", "#phone")), "value", "5551234567")
		phone.Keys = keys
		name := withReadBack(step(2, "fill", "Name", "Ada", sel("id", "#name")), "value", "Ada")
		outs := batchOf(t, ex, phone, name)
		if len(outs) != 2 || !outs[0].OK || !outs[1].OK {
			t.Fatalf("keys %v: %+v", keys, outs)
		}
		want := map[bool]string{true: "(555) 123-4567", false: "5551234567"}[keys]
		if got := eval[string](t, ex, `document.getElementById("phone").value`); got != want {
			t.Errorf("keys %v: the phone field holds %q; want %q", keys, got, want)
		}
	}
}

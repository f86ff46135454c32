package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/selector/selectortest"
)

// TestElementsOnTheX11Desktop lists, matches and points at the GTK form
// through AT-SPI, as a person repairing a desktop skill would.
func TestElementsOnTheX11Desktop(t *testing.T) {
	f := selectortest.StartGTK(t)
	home := t.TempDir()
	display := f.Desktop.Display
	// The window is drawn before its application is on the registry.
	var l listingOut
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		var err error
		l, err = elementsJSON(t, home, "", "--display", display, "--window", selectortest.Title)
		if err == nil && len(l.Elements) > 20 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("elements --window never listed the form: %+v, %v", l, err)
		}
	}
	if l.Source != "desktop" || l.Window != selectortest.Title {
		t.Fatalf("listing of %q from %q; want the form from the desktop", l.Window, l.Source)
	}
	var sawField bool
	for _, e := range l.Elements {
		sawField = sawField || e.Role == "text_field" && e.Value == "s-city" && e.Bounds[2] > 0 && e.Path != ""
	}
	if !sawField {
		t.Fatalf("no text field holding s-city with bounds and a path in %+v", l.Elements)
	}

	l, err := elementsJSON(t, home, "", "--display", display, "--window", selectortest.Title,
		"--match", `{"role":"text_field","near":{"label":"City","side":"right"},"in":{"role":"group","name":"Billing"}}`)
	if err != nil || l.Match == nil || l.Match.Count != 1 || len(l.Elements) != 1 || l.Elements[0].Value != "b-city" {
		t.Fatalf("--match the Billing City field = %+v, %v; want exactly it", l, err)
	}
	l, err = elementsJSON(t, home, `{"role":"button","name":"Add"}`, "--display", display, "--window", selectortest.Title, "--match", "-")
	if err == nil || l.Error == nil || l.Error.Code != "SELECTOR_AMBIGUOUS" || len(l.Elements) != 3 {
		t.Fatalf("--match the three Add buttons = %+v, %v; want ambiguous with the three listed", l, err)
	}

	// The pointer over Cancel: its element, under its window.
	l, err = elementsJSON(t, home, "", "--display", display, "--window", selectortest.Title, "--match", `{"role":"button","name":"Cancel"}`)
	if err != nil || len(l.Elements) != 1 {
		t.Fatalf("--match Cancel = %+v, %v", l, err)
	}
	b := l.Elements[0].Bounds
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if out, err := f.Desktop.Xdotool(ctx, "mousemove", fmt.Sprint(b[0]+b[2]/2), fmt.Sprint(b[1]+b[3]/2)); err != nil {
		t.Fatalf("xdotool mousemove: %v %s", err, out)
	}
	l, err = elementsJSON(t, home, "", "--display", display, "--window", selectortest.Title, "--at-pointer")
	if err != nil || len(l.Elements) < 2 || l.Elements[len(l.Elements)-1].Name != "Cancel" || l.Elements[0].Role != "window" {
		t.Fatalf("--at-pointer over Cancel = %+v, %v; want the window down to Cancel", l.Elements, err)
	}
}

package winhook_test

import (
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/wine"
)

// TestHooksUnderWine runs the hooks for real: internal/wine/hookprobe
// records under Wine, in a Wine virtual desktop on Xvfb holding notepad,
// while xdotool plays the person (wine.NotepadSession says what the person
// does). The probe ignores injected input, as a recording does: Wine 8 does
// not flag input from the X server (xdotool's XTEST included) as injected,
// only SendInput's.
func TestHooksUnderWine(t *testing.T) {
	rec := wine.NotepadSession(t)
	steps := rec.Steps
	var got []string
	for _, s := range steps {
		v := ""
		if s.Value != nil {
			v = s.Value.Raw
		}
		got = append(got, s.Action+" "+v)
	}
	want := []string{"click ", "fill Hi there", "submit ", "run ctrl+a", "click right"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("steps = %q; want %q (stats %s)", got, want, rec.Stats)
	}
	if c := steps[0].Cursor; len(c) != 2 || c[0] != 300 || c[1] != 250 {
		t.Errorf("first click at %v; want [300 250] in the Wine desktop", c)
	}
	for _, s := range steps[:4] {
		if s.ActiveApp != "notepad.exe" || !strings.Contains(s.ActiveWindow, "Notepad") {
			t.Errorf("%s step in %q/%q; want notepad.exe's window", s.Action, s.ActiveApp, s.ActiveWindow)
		}
	}
	if c := steps[4].Cursor; len(c) != 2 || c[0] != 900 || c[1] != 600 {
		t.Errorf("right click at %v; want [900 600]", c)
	}
	if steps[4].ActiveApp != "explorer.exe" {
		t.Errorf("right click on the desktop in %q; want explorer.exe, which draws Wine's desktop", steps[4].ActiveApp)
	}
	for _, s := range steps {
		if s.Actor != events.ActorHuman || s.Seq != 0 || s.TS == 0 {
			t.Errorf("step %+v: want actor human, seq 0 and a time", s)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("step %s: %v", s.Action, err)
		}
	}
}

// TestConformanceUnderWine runs the source conformance suite on the Windows
// side, in a Wine virtual desktop on Xvfb (conformance_windows_test.go).
func TestConformanceUnderWine(t *testing.T) {
	wine.RunWindowsTests(t, "./capture/winhook", "^TestWineConformance$")
}

package computer

import (
	"image"
	"testing"

	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/platform/cocoa"
)

// TestFromCocoa is the macOS listing's logic, run on every OS: application
// windows only, front to back, the front app's first window focused, and
// a withheld title refused.
func TestFromCocoa(t *testing.T) {
	ws := []cocoa.WindowInfo{
		{Number: 1, Layer: 25, OwnerPID: 50, Owner: "Dock", Name: "Dock", Bounds: cocoa.Rect{W: 1440, H: 80}},
		{Number: 7, Layer: 0, OwnerPID: 90, Owner: "TextEdit", Name: "notes.txt", Bounds: cocoa.Rect{X: 10.5, Y: 20, W: 400, H: 300.2}},
		{Number: 8, Layer: 0, OwnerPID: 90, Owner: "TextEdit", Name: "todo.txt", Bounds: cocoa.Rect{X: 30, Y: 40, W: 400, H: 300}},
		{Number: 9, Layer: 0, OwnerPID: 91, Owner: "Keychain Access", Name: "", Bounds: cocoa.Rect{X: 0, Y: 0, W: 600, H: 400}},
		{Number: 10, Layer: 0, OwnerPID: 92, Owner: "Finder", Name: "", Bounds: cocoa.Rect{}},
	}
	got := fromCocoa(ws, 90)
	want := []Window{
		{ID: "7", App: "TextEdit", Title: "notes.txt", PID: 90, Bounds: image.Rect(10, 20, 411, 321), Focused: true, Identity: identity(90, "", "TextEdit", "")},
		{ID: "8", App: "TextEdit", Title: "todo.txt", PID: 90, Bounds: image.Rect(30, 40, 430, 340), Identity: identity(90, "", "TextEdit", "")},
		{ID: "9", App: "Keychain Access", Title: TitleWithheld, PID: 91, Bounds: image.Rect(0, 0, 600, 400), Identity: identity(91, "", "Keychain Access", "")},
	}
	if len(got) != len(want) {
		t.Fatalf("fromCocoa = %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("window %d = %+v; want %+v", i, got[i], want[i])
		}
	}
	p := Policy{}
	if code, _ := p.Refuse(got[2]); code != ops.CodeComputerTargetDenyListed {
		t.Errorf("a withheld title: refused %q; want %s", code, ops.CodeComputerTargetDenyListed)
	}
	if code, _ := p.Refuse(got[0]); code != "" {
		t.Errorf("TextEdit refused %q", code)
	}
}

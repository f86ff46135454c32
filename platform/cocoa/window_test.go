package cocoa

import "testing"

func TestPickWindow(t *testing.T) {
	list := []WindowInfo{
		{Number: 1, Layer: 25, OwnerPID: 9, Owner: "Dock", Bounds: Rect{0, 0, 2000, 2000}},
		{Number: 2, Layer: 0, OwnerPID: 10, Owner: "Safari", Name: "Apple", Bounds: Rect{0, 0, 100, 100}},
		{Number: 3, Layer: 0, OwnerPID: 11, Owner: "Notes", Name: "Notes", Bounds: Rect{50, 50, 200, 200}},
	}
	for _, tc := range []struct {
		name    string
		id      uint32
		pid     int
		x, y    int
		atPoint bool
		want    uint32
	}{
		{"by id", 3, 0, 0, 0, true, 3},
		{"frontmost normal window at point", 0, 0, 60, 60, true, 2},
		{"layer above ignored", 0, 0, 150, 150, true, 3},
		{"keys go to the pid's window", 0, 11, 0, 0, false, 3},
		{"nothing", 0, 0, 900, 900, true, 0},
	} {
		w, ok := PickWindow(list, tc.id, tc.pid, tc.x, tc.y, tc.atPoint)
		if w.Number != tc.want || ok != (tc.want != 0) {
			t.Errorf("%s: got %d, %v; want %d", tc.name, w.Number, ok, tc.want)
		}
	}
	if w, ok := FindWindow(list, "Notes"); !ok || w.OwnerPID != 11 {
		t.Errorf("FindWindow = %+v, %v", w, ok)
	}
}

package replay

import (
	"testing"
	"time"
)

// TestPaceBacksOffAndRecovers: each refused row doubles the pause between
// rows, from a second up to a minute; each row let in halves it, to none.
func TestPaceBacksOffAndRecovers(t *testing.T) {
	var p pace
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	for _, w := range want {
		p.refused()
		if p.pause != w {
			t.Fatalf("after a refusal the pause is %s; want %s", p.pause, w)
		}
	}
	for range 10 {
		p.refused()
	}
	if p.pause != paceMost {
		t.Fatalf("the pause grew to %s; want at most %s", p.pause, paceMost)
	}
	for range 7 { // a minute halves below a quarter second in 8
		p.passed()
	}
	if p.pause == 0 {
		t.Fatal("the pause fell to none too soon")
	}
	p.passed()
	if p.pause != 0 {
		t.Fatalf("after rows let in the pause is %s; want none", p.pause)
	}
}

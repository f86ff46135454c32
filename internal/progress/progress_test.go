package progress

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/syncbuf"
)

// clock is a fake time source the tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func testBar(total int, tty bool) (*Bar, *syncbuf.Buffer, *clock) {
	c := &clock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	w := &syncbuf.Buffer{}
	return newBar(w, total, tty, c.now, time.AfterFunc), w, c
}

func TestPlain(t *testing.T) {
	b, w, c := testBar(200, false)
	c.add(10 * time.Second)
	b.Update(1, 0, 0, 0) // the first update always shows
	c.add(time.Second)
	b.Update(2, 0, 0, 0) // too soon, same 10% step: nothing
	c.add(4 * time.Second)
	b.Update(3, 0, 0, 0) // 5 s since the last line
	c.add(time.Second)
	b.Update(38, 1, 1, 0) // crossed 20%
	c.add(time.Second)
	b.Update(39, 1, 1, 0) // same step, too soon
	c.add(time.Second)
	b.Finish()
	b.Finish()
	b.Update(200, 0, 0, 0)
	want := []string{
		"rows 1/200: 1 done, 0 failed, 0 skipped, 0.1 rows/s, eta 33m10s",
		"rows 3/200: 3 done, 0 failed, 0 skipped, 0.2 rows/s, eta 16m25s",
		"rows 40/200: 38 done, 1 failed, 1 skipped, 2.4 rows/s, eta 1m6s",
		"rows 41/200: 39 done, 1 failed, 1 skipped, 2.2 rows/s, eta 1m12s, took 18s",
	}
	got := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("plain output =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Contains(w.String(), "\r") {
		t.Errorf("plain output %q holds a carriage return", w.String())
	}
}

func TestTTY(t *testing.T) {
	b, w, c := testBar(10, true)
	c.add(2 * time.Second)
	b.Update(5, 0, 0, 0)
	first := "\r[##########----------] rows 5/10: 5 done, 0 failed, 0 skipped, 2.5 rows/s, eta 2s"
	if got := w.String(); got != first {
		t.Fatalf("first draw = %q; want %q", got, first)
	}
	c.add(time.Second)
	b.Update(10, 0, 0, 0)
	second := "\r[####################] rows 10/10: 10 done, 0 failed, 0 skipped, 3.3 rows/s"
	pad := strings.Repeat(" ", len(first)-1-len(second)+1)
	if got := w.String(); got != first+second+pad {
		t.Fatalf("second draw = %q; want %q", got, first+second+pad)
	}
	b.Finish()
	if got := w.String(); !strings.HasSuffix(got, second+"\n") {
		t.Errorf("after Finish output = %q; want it to end %q", got, second+"\n")
	}
}

// TestStepWithinARow: a long row says which step it is at, on a terminal
// at once and elsewhere every few seconds; the row's end clears it.
func TestStepWithinARow(t *testing.T) {
	b, w, c := testBar(10, true)
	c.add(time.Second)
	b.Step(1, 2, 9)
	if got := w.String(); !strings.HasSuffix(got, "rows 0/10: 0 done, 0 failed, 0 skipped; row 1 at step 3/9") {
		t.Fatalf("terminal draw = %q; want the row's step", got)
	}
	c.add(time.Second)
	b.Update(1, 0, 0, 0)
	if got := w.String(); strings.HasSuffix(strings.TrimRight(got, " "), "step 3/9") || !strings.Contains(got, "rows 1/10: 1 done") {
		t.Fatalf("after the row ended: %q; want the counts without the step", got)
	}

	p, pw, pc := testBar(10, false)
	pc.add(time.Second)
	p.Step(1, 0, 40)
	pc.add(time.Second)
	p.Step(1, 1, 40) // too soon for another plain line
	pc.add(5 * time.Second)
	p.Step(1, 30, 40)
	want := "rows 0/10: 0 done, 0 failed, 0 skipped; row 1 at step 1/40\nrows 0/10: 0 done, 0 failed, 0 skipped; row 1 at step 31/40\n"
	if got := pw.String(); got != want {
		t.Errorf("plain output = %q; want %q", got, want)
	}
}

// TestStepOfEachWorker: rows filed in parallel show where each worker is,
// and a worker with no row is left out.
func TestStepOfEachWorker(t *testing.T) {
	b, w, c := testBar(10, false)
	b.StepOf(0, 3, 1, 7)
	b.StepOf(1, 4, 5, 7)
	b.StepOf(2, 5, 0, 7)
	c.add(6 * time.Second)
	b.StepOf(2, 0, 0, 0)
	last := func() string { lines := strings.Split(strings.TrimSpace(w.String()), "\n"); return lines[len(lines)-1] }
	want := "rows 0/10: 0 done, 0 failed, 0 skipped; row 3 at step 2/7, row 4 at step 6/7"
	if got := last(); got != want {
		t.Errorf("plain output = %q; want %q", got, want)
	}
	b.Update(1, 0, 0, 0)
	if got := last(); !strings.HasPrefix(got, "rows 1/10: 1 done, 0 failed, 0 skipped; row 3 at step 2/7, row 4 at step 6/7") {
		t.Errorf("after one row ended: %q; want the workers' steps kept", got)
	}
}

func TestTTYRateLimit(t *testing.T) {
	b, w, c := testBar(0, true)
	b.Update(1, 0, 0, 0)
	c.add(10 * time.Millisecond)
	b.Update(2, 0, 0, 0) // held back, then drawn by the timer
	b.Update(3, 0, 0, 0) // folded into the same held-back draw
	if n := strings.Count(w.String(), "\r"); n != 1 {
		t.Fatalf("draws = %d (%q); want 1 within the interval", n, w.String())
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(w.String(), "rows 3: 3 done") {
		if time.Now().After(deadline) {
			t.Fatalf("held-back update never drawn: %q", w.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(w.String(), "\r"); n != 2 {
		t.Errorf("draws = %d (%q); want 2", n, w.String())
	}
	b.Finish()
}

func TestConcurrent(t *testing.T) {
	b, _, _ := testBar(1000, true)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 100 {
				b.Update(i*100+j, 0, 0, 0)
			}
		})
	}
	wg.Wait()
	b.Finish()
}

func TestIsTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Errorf("IsTerminal(regular file) = true; want false")
	}
	if IsTerminal(nil) {
		t.Errorf("IsTerminal(nil) = true; want false")
	}
}

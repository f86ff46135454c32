package desktop

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/platform/ax"
	"github.com/reprise-dev/reprise/platform/ax/atspi"
	"github.com/reprise-dev/reprise/platform/input"
	"github.com/reprise-dev/reprise/replay"
	"github.com/reprise-dev/reprise/skills"
)

// rowsPerReplay is how many rows each replay of TestTwoReplaysKeepTheirRowsWhole files.
const rowsPerReplay = 10

// rowValues are the values replay name types in row r: each names its
// replay and row, so a mixed record shows.
func rowValues(name string, r int) [3]string {
	return [3]string{fmt.Sprintf("%s-first-%d", name, r), fmt.Sprintf("%s-last-%d", name, r), fmt.Sprintf("%s.%d@example.org", strings.ToLower(name), r)}
}

// TestTwoReplaysKeepTheirRowsWhole: two replays, each a process of its
// own with its own X and accessibility connections and its own hold of
// the display's lease, file 10 rows each into one GTK form at once: three
// fields, then Save, which appends the record and clears the form. Every
// saved record holds exactly one row's values, and every row is filed
// exactly once: the lease covers a row from its first input to its
// commit, so the other replay waits for the row to end, never for a step.
func TestTwoReplaysKeepTheirRowsWhole(t *testing.T) {
	if name := os.Getenv("REPRISE_TEST_ROWS_REPLAYER"); name != "" {
		os.Exit(replayRows(name, os.Getenv("REPRISE_TEST_ROWS_DISPLAY")))
	}
	xvfb.PrivateSessionBus(t)
	d := xvfb.Start(t)
	d.StartA11yBus(t)
	records := filepath.Join(t.TempDir(), "records.txt")
	startCustomer(t, d, "v1", records)
	tree, err := atspi.New(atspi.Options{Display: d.Display, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	element(ctx, t, tree, "button", "Save")

	names := []string{"A", "B"}
	outs := make([]bytes.Buffer, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run", "^TestTwoReplaysKeepTheirRowsWhole$")
		cmd.Env = append(os.Environ(), "REPRISE_TEST_ROWS_REPLAYER="+name, "REPRISE_TEST_ROWS_DISPLAY="+d.Display)
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			if err := cmd.Wait(); err != nil {
				t.Errorf("replay %s: %v\n%s", name, err, outs[i].String())
			}
		})
	}
	wg.Wait()
	waited := 0
	for i := range outs {
		var n int
		if _, err := fmt.Sscanf(lastLine(outs[i].String(), "waited "), "waited %d", &n); err == nil {
			waited += n
		}
	}
	// Turns: a replay that lets the lease go at a row's end and tries
	// again at once does not starve the other, which queued for it.
	if waited < rowsPerReplay/2 {
		t.Errorf("the replays waited for each other %d times; want them to take turns, row by row", waited)
	}
	b, err := os.ReadFile(records)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for _, name := range names {
		for r := 1; r <= rowsPerReplay; r++ {
			v := rowValues(name, r)
			want[strings.Join(v[:], "|")] = true
		}
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for _, line := range lines {
		if !want[line] {
			t.Errorf("a saved record %q is no one row's values", line)
		}
		delete(want, line)
	}
	if len(lines) != len(names)*rowsPerReplay || len(want) != 0 {
		t.Errorf("%d records saved, rows never saved: %v; want each of the %d rows once", len(lines), want, len(names)*rowsPerReplay)
	}
	t.Logf("%d records, %d waits for the other replay's row", len(lines), waited)
}

func lastLine(s, prefix string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], prefix) {
			return lines[i]
		}
	}
	return ""
}

// replayRows is one replay of TestTwoReplaysKeepTheirRowsWhole, in a
// process of its own: it files its rows and says how often it waited.
func replayRows(name, display string) int {
	fail := func(format string, args ...any) int {
		fmt.Printf(format+"\n", args...)
		return 1
	}
	in, err := input.NewX11(display)
	if err != nil {
		return fail("input: %v", err)
	}
	tree, err := atspi.New(atspi.Options{Display: display, Timeout: 5 * time.Second})
	if err != nil {
		return fail("tree: %v", err)
	}
	defer tree.Close()
	lease, err := NewLease(display, fmt.Sprintf("replay %s, pid %d", name, os.Getpid()))
	if err != nil {
		return fail("lease: %v", err)
	}
	var waits atomic.Int32
	lease.Waiting = func(string) { waits.Add(1) }
	ex, err := New(Options{Input: in, AX: ax.ATSPI{Enricher: tree}, Lease: lease, Quiet: 100 * time.Millisecond, FindTimeout: 10 * time.Second})
	if err != nil {
		return fail("executor: %v", err)
	}
	defer ex.Close()
	ctx := context.Background()
	window := skills.Floor{ActiveWindow: "Customer"}
	for r := 1; r <= rowsPerReplay; r++ {
		v := rowValues(name, r)
		var steps []replay.Step
		for i, label := range []string{"First Name", "Last Name", "Email"} {
			steps = append(steps, replay.Step{Row: r, Index: i, Step: skills.Step{Action: "fill", Role: "textbox", Label: label, Value: v[i], Floor: window,
				ReadBack: &skills.ReadBack{Kind: "value", Expect: v[i]}}})
		}
		steps = append(steps, replay.Step{Row: r, Index: 3, Last: true, Step: skills.Step{Action: "click", Role: "button", Label: "Save", Floor: window, Destructive: true}})
		for _, st := range steps {
			out, err := ex.Do(ctx, st)
			if err != nil || !out.OK || st.Last && !out.Committed {
				return fail("row %d step %d: %+v, %v", r, st.Index+1, out, err)
			}
		}
	}
	fmt.Printf("waited %d\n", waits.Load())
	return 0
}

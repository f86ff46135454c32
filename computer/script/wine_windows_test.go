package script

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/computer"
	"github.com/reprise-dev/reprise/internal/wine"
	"github.com/reprise-dev/reprise/ops"
)

// fieldReader reads an edit control's text at a screen point (the
// Windows input's WM_GETTEXT read-back).
type fieldReader interface {
	FieldText(x, y int) (string, error)
}

// TestWineScriptOnNotepad runs the scripted runtime on Windows' own
// parts (EnumWindows with integrity levels, GDI capture, SendInput) in a
// Wine desktop: a click and typing reach notepad through the grant; a
// deny-listed title refuses the grant and the input, so nothing is typed;
// an app above reprise's integrity level is refused as elevated. Run by
// wine_linux_test.go.
func TestWineScriptOnNotepad(t *testing.T) {
	wine.InDesktop(t)
	hwnd := wine.Notepad(t, 100, 80, 600, 400)
	id := fmt.Sprintf("0x%x", uintptr(hwnd))
	desk, err := computer.OpenDesktop("")
	if err != nil {
		t.Fatal(err)
	}
	policy := computer.PolicyFromEnv(nil)
	b := computer.NewBroker(desk, policy, nil, nil)
	ctx := t.Context()
	var pad api.Target
	ts, err := b.Targets(ctx)
	for _, tg := range ts {
		if tg.ID == id {
			pad = tg
		}
	}
	if err != nil || pad.ID == "" || pad.App != "notepad" || pad.Refused != "" || pad.Integrity == 0 {
		t.Fatalf("notepad listed as %+v (%v) among %d windows; want it, allowed, with its integrity level", pad, err, len(ts))
	}
	t.Logf("notepad at integrity 0x%x, reprise at 0x%x", pad.Integrity, policy.Integrity)
	g, _, err := b.Create(ctx, computer.GrantRequest{TargetID: id, Capture: computer.CapturePixels, Issuer: computer.IssuerUser})
	if err != nil {
		t.Fatal(err)
	}
	plat := Open("", slog.New(slog.DiscardHandler))
	defer plat.Close()
	if plat.Screen == nil || plat.Input == nil {
		t.Fatalf("Windows' platform opened without capture or input: %+v", plat)
	}
	r := New(b, g.ID, plat, shotsDir(t))
	res, err := r.Run(ctx, `const w = desktop.window({app: "notepad"});
const shot = w.screenshot();
w.click(300, 200);
w.type("hello wine");
return [shot.width, shot.height].join("x")`, Options{Timeout: time.Minute})
	if err != nil || res.Return != "600x400" {
		t.Fatalf("the run: %q, %v; want a 600x400 screenshot of notepad", res.Return, err)
	}
	read := plat.Input.(fieldReader)
	var got string
	for deadline := time.Now().Add(10 * time.Second); got != "hello wine" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		got, _ = read.FieldText(400, 280)
	}
	if got != "hello wine" {
		t.Fatalf("notepad holds %q; want what the script typed", got)
	}
	if err := b.Revoke(ctx, g.ID); err != nil {
		t.Fatal(err)
	}

	// The person protects notepad's title: no grant binds it, no key
	// reaches it.
	protected := policy
	protected.Titles = []string{"notepad"}
	pb := computer.NewBroker(desk, protected, nil, nil)
	if _, _, err := pb.Create(ctx, computer.GrantRequest{TargetID: id, Issuer: computer.IssuerUser}); !isCode(err, ops.CodeComputerTargetDenyListed) {
		t.Fatalf("a grant on a protected title: %v; want %s", err, ops.CodeComputerTargetDenyListed)
	}
	pg, _, err := pb.Create(ctx, computer.GrantRequest{Issuer: computer.IssuerUser, Unbound: true})
	if err != nil {
		t.Fatal(err)
	}
	pr := New(pb, pg.ID, plat, shotsDir(t))
	_, err = pr.Run(ctx, `desktop.window({app: "notepad"}).type(" and more")`, Options{Timeout: time.Minute})
	var se *Error
	if !errors.As(err, &se) || se.Code != PermissionDenied || se.GrantCode != ops.CodeComputerTargetDenyListed {
		t.Fatalf("typing into a protected title: %v; want PermissionDenied (%s)", err, ops.CodeComputerTargetDenyListed)
	}
	if got, _ := read.FieldText(400, 280); got != "hello wine" {
		t.Fatalf("notepad holds %q after the refused input; want it untouched", got)
	}

	// Elevation compared: a reprise one level below notepad refuses it.
	low := policy
	low.Integrity = pad.Integrity - 0x1000
	ts, _ = computer.NewBroker(desk, low, nil, nil).Targets(ctx)
	for _, tg := range ts {
		if tg.ID == id && tg.Refused != ops.CodeComputerTargetElevated {
			t.Fatalf("notepad above reprise's level: refused %q (%s); want %s", tg.Refused, tg.Reason, ops.CodeComputerTargetElevated)
		}
	}
	if !strings.HasPrefix(id, "0x") {
		t.Fatalf("window id %q", id)
	}
}

// shotsDir is a folder for screenshots removed at the end as far as Wine
// lets it: t.TempDir's strict cleanup fails there ("Invalid function").
func shotsDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "reprise-shots-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

func isCode(err error, code string) bool {
	var ce *ops.Error
	return errors.As(err, &ce) && ce.Code == code
}

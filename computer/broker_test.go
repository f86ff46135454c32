package computer

import (
	"context"
	"errors"
	"fmt"
	"image"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/audit"
	"github.com/reprise-dev/reprise/ops"
)

// fakeDesktop is a desktop whose windows and secure-input state the test
// sets; the broker's logic is the same on every OS.
type fakeDesktop struct {
	mu      sync.Mutex
	windows []Window
	secure  bool
}

func (d *fakeDesktop) Windows(context.Context) ([]Window, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Window(nil), d.windows...), nil
}

func (d *fakeDesktop) SecureInput(context.Context) (bool, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.secure, nil
}

func (d *fakeDesktop) set(f func(ws []Window) []Window) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.windows = f(d.windows)
}

// auditLog keeps the entries, and refuses any the daemon's audit log
// would refuse (its allow-list of kinds, fields and value shapes).
type auditLog struct {
	entries []map[string]string
	refused []error
}

func (a *auditLog) Append(ctx context.Context, kind string, f map[string]string) error {
	if err := ctx.Err(); err != nil { // as the daemon's, whose write a cancelled context stops
		a.refused = append(a.refused, fmt.Errorf("%s: %w", kind, err))
		return err
	}
	if err := audit.CheckFields(kind, f); err != nil {
		a.refused = append(a.refused, err)
		return err
	}
	e := map[string]string{"kind": kind}
	for k, v := range f {
		e[k] = v
	}
	a.entries = append(a.entries, e)
	return nil
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// rig is a desktop of reprise's terminal, a keychain prompt, an elevated
// installer, a deny-listed app and two ordinary windows, front to back.
func rig(t *testing.T) (*Broker, *fakeDesktop, *clock, *auditLog) {
	t.Helper()
	d := &fakeDesktop{windows: []Window{
		{ID: "0x1", App: "xterm", Title: "reprise replay", PID: 100, Bounds: image.Rect(0, 0, 800, 600), Focused: true},
		{ID: "0x2", App: "gcr-prompter", Title: "Unlock Keyring", PID: 200, Bounds: image.Rect(10, 10, 400, 200)},
		{ID: "0x3", App: "setup", Title: "Installer", PID: 300, Bounds: image.Rect(0, 0, 500, 400), Integrity: 3},
		{ID: "0x4", App: "payroll", Title: "Payroll", PID: 400, Bounds: image.Rect(0, 0, 500, 400)},
		{ID: "0x5", App: "gedit", Title: "notes.txt - gedit", PID: 500, Bounds: image.Rect(100, 50, 900, 650)},
		{ID: "0x6", App: "gnome-calculator", Title: "Calculator", PID: 600, Bounds: image.Rect(200, 100, 560, 600)},
	}}
	c := &clock{t: time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)}
	a := &auditLog{}
	t.Cleanup(func() {
		for _, err := range a.refused {
			t.Errorf("the audit log would refuse an entry: %v", err)
		}
	})
	p := Policy{Self: []int{100}, Apps: []string{"payroll"}, Integrity: 2}
	return NewBroker(d, p, a, c.now), d, c, a
}

func code(err error) string {
	var e *ops.Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err == nil {
		return ""
	}
	return "not a computer error: " + err.Error()
}

func TestTargetsListTheRefusedWithTheirReason(t *testing.T) {
	b, _, _, _ := rig(t)
	ts, err := b.Targets(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"0x1": ops.CodeComputerSelfTargetRefused, "0x2": ops.CodeComputerTargetDenyListed, "0x3": ops.CodeComputerTargetElevated, "0x4": ops.CodeComputerTargetDenyListed, "0x5": "", "0x6": ""}
	if len(ts) != len(want) {
		t.Fatalf("%d targets; want every window (%d)", len(ts), len(want))
	}
	for _, tg := range ts {
		if tg.Refused != want[tg.ID] || (tg.Refused != "") != (tg.Reason != "") {
			t.Errorf("%s (%s): refused %q (%q); want %q with a reason", tg.ID, tg.App, tg.Refused, tg.Reason, want[tg.ID])
		}
	}
}

func TestCreateBindsTheFrontAllowedWindowOnePerDesktop(t *testing.T) {
	b, d, _, _ := rig(t)
	g, _, err := b.Create(t.Context(), GrantRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Target.ID != "0x5" || g.Scope != ScopeDesktop || g.Capture != CaptureA11y || g.Issuer != IssuerAgent || g.Revision != 1 || g.Budget != DefaultBudget {
		t.Errorf("grant = %+v; want a desktop grant on gedit, a11y-only, by the agent", g)
	}
	if _, _, err := b.Create(t.Context(), GrantRequest{}); code(err) != ops.CodeComputerGrantActive {
		t.Errorf("a second grant: %v; want %s", err, ops.CodeComputerGrantActive)
	}
	for _, id := range []string{"0x1", "0x2", "0x3", "0x4"} {
		if _, err := b.Rebind(t.Context(), g.ID, id); code(err) == "" {
			t.Errorf("rebind to refused window %s succeeded", id)
		}
	}
	if err := b.Revoke(t.Context(), g.ID); err != nil {
		t.Fatal(err)
	}
	d.set(func(ws []Window) []Window { return ws[:4] })
	if _, _, err := b.Create(t.Context(), GrantRequest{}); code(err) != ops.CodeComputerNoTarget {
		t.Errorf("no allowed window: %v; want %s", err, ops.CodeComputerNoTarget)
	}
	if _, _, err := b.Create(t.Context(), GrantRequest{Scope: ScopeWindow, TargetID: "0x9"}); code(err) != ops.CodeComputerTargetNotFound {
		t.Errorf("a window that is not there: %v", err)
	}
}

func TestRebindAdvancesTheRevisionAndWindowGrantsStayPinned(t *testing.T) {
	b, _, _, a := rig(t)
	g, _, err := b.Create(t.Context(), GrantRequest{})
	if err != nil {
		t.Fatal(err)
	}
	uids, rev, err := b.UIDs(g.ID, 3)
	if err != nil || rev != 1 {
		t.Fatal(rev, err)
	}
	g2, err := b.Rebind(t.Context(), g.ID, "0x6")
	if err != nil || g2.Target.App != "gnome-calculator" || g2.Revision != 2 {
		t.Fatalf("rebind = %+v, %v", g2, err)
	}
	if _, err := b.Authorize(t.Context(), g.ID, Action{Kind: "click", UID: uids[0]}); code(err) != ops.CodeComputerStaleRevision {
		t.Errorf("a uid of the window before: %v; want %s", err, ops.CodeComputerStaleRevision)
	}
	if !hasEntry(a, "computer.grant.rebound", "target_app", "gnome-calculator") {
		t.Errorf("the rebind is not audited with the app it moved to: %v", a.entries)
	}
	_ = b.Revoke(t.Context(), g.ID)

	w, _, err := b.Create(t.Context(), GrantRequest{Scope: ScopeWindow, TargetID: "0x6"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Rebind(t.Context(), w.ID, "0x5"); code(err) != ops.CodeComputerOutOfScope {
		t.Errorf("rebinding a window grant: %v; want %s", err, ops.CodeComputerOutOfScope)
	}
	if !hasEntry(a, "computer.grant.rebind_refused", "result", "computer_out_of_scope") {
		t.Errorf("the out-of-scope rebind is not audited: %v", a.entries)
	}
}

func TestAuthorizeChecksEveryActionRightBeforeInput(t *testing.T) {
	b, d, _, a := rig(t)
	g, _, err := b.Create(t.Context(), GrantRequest{Capture: CapturePixels})
	if err != nil {
		t.Fatal(err)
	}
	basis, w, err := b.Measure(t.Context(), g.ID, true)
	if err != nil || w.ID != "0x5" {
		t.Fatal(w, err)
	}
	pt := func(x, y int) *image.Point { return &image.Point{X: x, Y: y} }
	uids, _, _ := b.UIDs(g.ID, 1)
	for _, tc := range []struct {
		name string
		act  Action
		want string
	}{
		{"a point on the screenshot's basis", Action{Kind: "click", Point: pt(10, 10), Basis: &basis}, ""},
		{"a uid of this revision", Action{Kind: "type", UID: uids[0], TextLen: 11, Role: "text"}, ""},
		{"a point without a basis", Action{Kind: "click", Point: pt(10, 10)}, ops.CodeComputerStaleBasis},
		{"a point outside the window", Action{Kind: "click", Point: pt(800, 10), Basis: &basis}, ops.CodeComputerOutOfBounds},
		{"a negative point", Action{Kind: "click", Point: pt(-1, 10), Basis: &basis}, ops.CodeComputerOutOfBounds},
		{"a basis of another geometry", Action{Kind: "click", Point: pt(1, 1), Basis: &Basis{Revision: basis.Revision, Bounds: image.Rect(0, 0, 10, 10)}}, ops.CodeComputerStaleBasis},
		{"an old revision", Action{Kind: "click", UID: uids[0], Revision: 7}, ops.CodeComputerStaleRevision},
		{"a uid made up", Action{Kind: "click", UID: "1.0.zz"}, ops.CodeComputerElementNotFound},
		{"both a uid and a point", Action{Kind: "click", UID: uids[0], Point: pt(1, 1), Basis: &basis}, ops.CodeComputerInvalidRequest},
		{"no kind", Action{UID: uids[0]}, ops.CodeComputerInvalidRequest},
	} {
		if _, err := b.Authorize(t.Context(), g.ID, tc.act); code(err) != tc.want {
			t.Errorf("%s: %v; want %q", tc.name, err, tc.want)
		}
	}
	// The window moves between the screenshot and the click.
	d.set(func(ws []Window) []Window { ws[4].Bounds = ws[4].Bounds.Add(image.Pt(30, 0)); return ws })
	if _, err := b.Authorize(t.Context(), g.ID, Action{Kind: "click", Point: pt(10, 10), Basis: &basis}); code(err) != ops.CodeComputerStaleRevision {
		t.Errorf("a click after the window moved: %v; want %s", err, ops.CodeComputerStaleRevision)
	}
	basis, _, _ = b.Measure(t.Context(), g.ID, true)
	if _, err := b.Authorize(t.Context(), g.ID, Action{Kind: "click", Point: pt(10, 10), Basis: &basis}); err != nil {
		t.Errorf("a click on a fresh basis: %v", err)
	}
	// A password is being typed: nothing, anywhere.
	d.mu.Lock()
	d.secure = true
	d.mu.Unlock()
	if _, err := b.Authorize(t.Context(), g.ID, Action{Kind: "click", Point: pt(10, 10), Basis: &basis}); code(err) != ops.CodeComputerSecureInputRefused {
		t.Errorf("input during secure input: %v; want %s", err, ops.CodeComputerSecureInputRefused)
	}
	if _, _, err := b.Measure(t.Context(), g.ID, true); code(err) != ops.CodeComputerSecureInputRefused {
		t.Errorf("a screenshot during secure input: %v; want %s", err, ops.CodeComputerSecureInputRefused)
	}
	for _, e := range a.entries {
		if e["kind"] == "computer.action" && e["action"] == "type" && (e["text_length"] != "11" || e["role"] != "text") {
			t.Errorf("typed text audited as %v; want its length only", e)
		}
		if e["grant_id"] != g.ID || e["scope"] != ScopeDesktop || e["issuer"] != IssuerAgent {
			t.Errorf("audit entry %v lacks the grant's id, scope or issuer", e)
		}
	}
}

func TestPixelsNeedAPixelsGrant(t *testing.T) {
	b, _, _, _ := rig(t)
	g, _, err := b.Create(t.Context(), GrantRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Measure(t.Context(), g.ID, true); code(err) != ops.CodeComputerCaptureNotGranted {
		t.Errorf("a screenshot on an a11y-only grant: %v; want %s", err, ops.CodeComputerCaptureNotGranted)
	}
	if _, _, err := b.Measure(t.Context(), g.ID, false); err != nil {
		t.Errorf("a measure without pixels: %v", err)
	}
}

func TestBudgetAndIdleExpiryCloseTheGrant(t *testing.T) {
	b, _, c, _ := rig(t)
	g, abort, err := b.Create(t.Context(), GrantRequest{Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	uids, _, _ := b.UIDs(g.ID, 1)
	for i := range 2 {
		if _, err := b.Authorize(t.Context(), g.ID, Action{Kind: "click", UID: uids[0]}); err != nil {
			t.Fatalf("action %d: %v", i+1, err)
		}
	}
	select {
	case <-abort:
	default:
		t.Error("the grant did not close when its budget was spent")
	}
	if _, err := b.Authorize(t.Context(), g.ID, Action{Kind: "click", UID: uids[0]}); code(err) != ops.CodeComputerNoGrant {
		t.Errorf("a third action: %v; want %s", err, ops.CodeComputerNoGrant)
	}

	g, _, err = b.Create(t.Context(), GrantRequest{IdleExpiry: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	c.t = c.t.Add(59 * time.Second)
	if _, _, err := b.UIDs(g.ID, 1); err != nil {
		t.Errorf("within its idle expiry: %v", err)
	}
	c.t = c.t.Add(2 * time.Minute)
	if _, _, err := b.UIDs(g.ID, 1); code(err) != ops.CodeComputerGrantExpired {
		t.Errorf("past its idle expiry: %v; want %s", err, ops.CodeComputerGrantExpired)
	}
	if _, ok := b.Describe(); ok {
		t.Error("an expired grant is still active")
	}
}

func TestStopRevokesAndCoolsDownSelfIssuedGrants(t *testing.T) {
	b, _, c, a := rig(t)
	g, abort, err := b.Create(t.Context(), GrantRequest{})
	if err != nil {
		t.Fatal(err)
	}
	b.Stop(t.Context())
	select {
	case <-abort:
	default:
		t.Fatal("Stop did not abort what holds the grant")
	}
	if _, _, err := b.UIDs(g.ID, 1); code(err) != ops.CodeComputerNoGrant {
		t.Errorf("the stopped grant: %v", err)
	}
	c.t = c.t.Add(29 * time.Second)
	if _, _, err := b.Create(t.Context(), GrantRequest{Issuer: IssuerAgent}); code(err) != ops.CodeComputerStoppedByUser || !strings.Contains(err.Error(), "1s") {
		t.Errorf("a self-issued grant 29 s after Stop: %v; want %s", err, ops.CodeComputerStoppedByUser)
	}
	if !hasEntry(a, "computer.grant.refused", "result", "computer_stopped_by_user") {
		t.Errorf("the refused grant is not audited: %v", a.entries)
	}
	c.t = c.t.Add(2 * time.Second)
	g, _, err = b.Create(t.Context(), GrantRequest{Issuer: IssuerAgent})
	if err != nil {
		t.Errorf("a self-issued grant 31 s after Stop: %v", err)
	}
	_ = b.Revoke(t.Context(), g.ID)

	b.Stop(t.Context())
	if _, _, err := b.Create(t.Context(), GrantRequest{Issuer: IssuerUser}); err != nil {
		t.Errorf("a grant the person issues during the cooldown: %v", err)
	}
	_ = b.Revoke(t.Context(), mustDescribe(t, b).ID)
	if _, _, err := b.Create(t.Context(), GrantRequest{Issuer: IssuerAgent}); err != nil {
		t.Errorf("the person's grant did not clear the cooldown: %v", err)
	}
}

func TestTheBoundWindowClosing(t *testing.T) {
	b, d, _, _ := rig(t)
	g, _, err := b.Create(t.Context(), GrantRequest{})
	if err != nil {
		t.Fatal(err)
	}
	uids, _, _ := b.UIDs(g.ID, 1)
	d.set(func(ws []Window) []Window { return append(ws[:4], ws[5]) }) // gedit closes
	if _, err := b.Authorize(t.Context(), g.ID, Action{Kind: "click", UID: uids[0]}); code(err) != ops.CodeComputerStaleRevision {
		t.Errorf("the action in flight: %v; want %s", err, ops.CodeComputerStaleRevision)
	}
	if now := mustDescribe(t, b); now.Target.App != "gnome-calculator" || now.Revision != 2 {
		t.Errorf("the desktop grant is on %s at revision %d; want the calculator, the front allowed window, at 2", now.Target.App, now.Revision)
	}
	_ = b.Revoke(t.Context(), g.ID)

	w, abort, err := b.Create(t.Context(), GrantRequest{Scope: ScopeWindow, TargetID: "0x6"})
	if err != nil {
		t.Fatal(err)
	}
	d.set(func(ws []Window) []Window { return ws[:4] })
	if _, _, err := b.Measure(t.Context(), w.ID, false); code(err) != ops.CodeComputerGrantRevoked {
		t.Errorf("a window grant whose window closed: %v; want %s", err, ops.CodeComputerGrantRevoked)
	}
	select {
	case <-abort:
	default:
		t.Error("the window grant was not revoked")
	}
}

func TestDenyListFromTheEnvironment(t *testing.T) {
	t.Setenv(EnvProtectedApps, " Gedit ,foo")
	t.Setenv(EnvProtectedTitles, "calculator")
	p := PolicyFromEnv(nil)
	for _, tc := range []struct {
		w    Window
		want string
	}{
		{Window{App: "gedit", Title: "notes"}, ops.CodeComputerTargetDenyListed},
		{Window{App: "gnome-calculator", Title: "Calculator"}, ops.CodeComputerTargetDenyListed},
		{Window{App: "seahorse", Title: "Passwords and Keys"}, ops.CodeComputerTargetDenyListed},
		{Window{App: "xeyes", Title: "reprise review — rec_1"}, ops.CodeComputerSelfTargetRefused},
		{Window{App: "xeyes", Title: "xeyes"}, ""},
	} {
		if got, _ := p.Refuse(tc.w); got != tc.want {
			t.Errorf("%+v: %q; want %q", tc.w, got, tc.want)
		}
	}
}

func mustDescribe(t *testing.T, b *Broker) Grant {
	t.Helper()
	g, ok := b.Describe()
	if !ok {
		t.Fatal("no active grant")
	}
	return g
}

func hasEntry(a *auditLog, kind, key, value string) bool {
	for _, e := range a.entries {
		if e["kind"] == kind && e[key] == value {
			return true
		}
	}
	return false
}

// TestAGrantFollowsTheWindowNotItsID: the OS gives the bound window's id
// to another application's window (issue 32: "Bank transfer" got the
// script's text); the grant ends, audited, and nothing is authorized.
func TestAGrantFollowsTheWindowNotItsID(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scope string
	}{{"desktop scope", ScopeDesktop}, {"window scope", ScopeWindow}} {
		t.Run(tc.name, func(t *testing.T) {
			b, d, _, a := rig(t)
			d.set(func(ws []Window) []Window {
				ws[4].Identity = identity(500, "1234", "/usr/bin/gedit", "gedit\x00Gedit")
				return ws
			})
			g, abort, err := b.Create(t.Context(), GrantRequest{Scope: tc.scope, TargetID: "0x5"})
			if err != nil {
				t.Fatal(err)
			}
			d.set(func(ws []Window) []Window {
				// Same id, same app name and pid even, another process start.
				ws[4].Title, ws[4].Identity = "Bank transfer", identity(500, "9999", "/usr/bin/gedit", "gedit\x00Gedit")
				return ws
			})
			if _, err := b.Authorize(t.Context(), g.ID, Action{Kind: "type", Keyboard: true, TextLen: 5}); code(err) != ops.CodeComputerGrantRevoked {
				t.Errorf("an action on the window that changed hands: %v; want %s", err, ops.CodeComputerGrantRevoked)
			}
			select {
			case <-abort:
			default:
				t.Error("the grant was not ended")
			}
			if _, ok := b.Describe(); ok {
				t.Error("a grant is still active")
			}
			ended := false
			for _, e := range a.entries {
				ended = ended || e["kind"] == "computer.grant.target_closed" && e["why"] == "changed_hands"
			}
			if last := a.entries[len(a.entries)-1]; !ended || last["result"] != "computer_grant_revoked" {
				t.Errorf("audit %v; want the grant's end (changed_hands), then the refused action", a.entries)
			}
		})
	}
}

// A replay's grant follows whichever window each step lands in: the id
// reused by the next row's window rebinds it, a new revision, instead of
// ending the run.
func TestAReplayGrantFollowsAReusedID(t *testing.T) {
	b, d, _, a := rig(t)
	g, abort, err := b.Create(t.Context(), GrantRequest{Unbound: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Allow(t.Context(), g.ID, api.Intent{Kind: "click", Window: "notes.txt", Point: &image.Point{X: 200, Y: 100}}); err != nil {
		t.Fatal(err)
	}
	d.set(func(ws []Window) []Window {
		ws[4].Identity = identity(501, "77", "/usr/bin/gedit", "")
		return ws
	})
	if err := b.Allow(t.Context(), g.ID, api.Intent{Kind: "click", Window: "notes.txt", Point: &image.Point{X: 200, Y: 100}}); err != nil {
		t.Errorf("the next row's window under the same id: %v", err)
	}
	select {
	case <-abort:
		t.Error("the replay's grant ended")
	default:
	}
	rebound := false
	for _, e := range a.entries {
		rebound = rebound || e["kind"] == "computer.grant.rebound" && e["why"] == "changed_hands"
	}
	if !rebound {
		t.Errorf("no rebind audited: %v", a.entries)
	}
}

// An idle grant is not described as active (issue 32: `computer status`
// showed an expired grant as active); its end is audited when it is seen.
func TestAnIdleGrantIsNotDescribedAsActive(t *testing.T) {
	b, _, c, a := rig(t)
	g, abort, err := b.Create(t.Context(), GrantRequest{IdleExpiry: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Describe(); !ok {
		t.Fatal("a fresh grant is not described")
	}
	c.t = c.t.Add(2 * time.Minute)
	if d, ok := b.Describe(); ok {
		t.Errorf("a grant idle past its expiry is described as active: %+v", d)
	}
	select {
	case <-abort:
	default:
		t.Error("the idle grant was not ended")
	}
	if last := a.entries[len(a.entries)-1]; last["kind"] != "computer.grant.expired" || last["grant_id"] != g.ID {
		t.Errorf("the last audit entry is %v; want the grant's expiry", last)
	}
}

// The action that spends the budget is audited as done, and the grant's
// end too, though the caller's context is gone by then (a script's ends
// with its grant): issue 32 saw neither written.
func TestTheLastActionOfABudgetIsAudited(t *testing.T) {
	b, _, _, a := rig(t)
	g, _, err := b.Create(t.Context(), GrantRequest{Budget: 1})
	if err != nil {
		t.Fatal(err)
	}
	uids, _, _ := b.UIDs(g.ID, 1)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "click", UID: uids[0]}); err != nil {
		t.Fatal(err)
	}
	if !hasEntry(a, "computer.action", "result", "ok") || !hasEntry(a, "computer.grant.budget_spent", "grant_id", g.ID) {
		t.Errorf("audit %v; want the action ok and the budget spent", a.entries)
	}
}

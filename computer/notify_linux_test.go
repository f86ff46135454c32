package computer

import (
	"context"
	"image"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/ops"
)

// notifications is a notification server on the test's session bus: it
// keeps what it is asked to show.
type notifications struct {
	mu    sync.Mutex
	shown []string
	ids   []uint32
}

func (n *notifications) Notify(app string, replaces uint32, _ string, summary, body string, _ []string, _ map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.shown = append(n.shown, app+": "+summary)
	n.ids = append(n.ids, replaces)
	return 7, nil
}

func (n *notifications) got() ([]string, []uint32) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.shown), slices.Clone(n.ids)
}

// TestGrantsAreAnnounced: the person sees a notification when a grant
// begins and when Stop ends it, each replacing the last; the audit still
// gets every event.
func TestGrantsAreAnnounced(t *testing.T) {
	xvfb.PrivateSessionBus(t)
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	srv := &notifications{}
	if err := conn.Export(srv, "/org/freedesktop/Notifications", "org.freedesktop.Notifications"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName("org.freedesktop.Notifications", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own the notifications name: %v %v", reply, err)
	}
	d := &fakeDesktop{windows: []Window{{ID: "0x9", App: "gedit", Title: "notes.txt", PID: 9, Bounds: image.Rect(0, 0, 300, 200)}}}
	audit := &auditLog{}
	b := NewBroker(d, Policy{}, notifying{next: audit, n: NewNotifier(), log: discard()}, nil)
	ctx := context.Background()
	g, _, err := b.Create(ctx, GrantRequest{Issuer: IssuerUser})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Authorize(ctx, g.ID, Action{Kind: "type", Keyboard: true, TextLen: 3}); err == nil {
		t.Fatal("keys into an unfocused window were authorized")
	}
	b.Stop(ctx)
	var shown []string
	var replaces []uint32
	for deadline := time.Now().Add(10 * time.Second); len(shown) < 2 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		shown, replaces = srv.got()
	}
	if !slices.Equal(shown, []string{"reprise: reprise may operate gedit", "reprise: reprise stopped"}) || !slices.Equal(replaces, []uint32{0, 7}) {
		t.Fatalf("notifications %q replacing %v; want the grant and its stop, the second replacing the first", shown, replaces)
	}
	if len(audit.entries) != 3 || audit.entries[1]["result"] != auditCode(ops.CodeComputerTargetNotFocused) {
		t.Fatalf("audit %v; want created, the refused action, stopped", audit.entries)
	}
}

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

package computer

import (
	"context"
	"image"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/internal/xvfb"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay/desktop"
)

// TestOneGrantPerDisplayAcrossDaemonsUnderXvfb: two daemons' grant
// managers on one X display, each with its own X connection holding the
// display's grant seat (an X selection): while one daemon's grant is
// active the other's request is refused, naming that daemon, until the
// grant is revoked, expires or the person presses Stop.
func TestOneGrantPerDisplayAcrossDaemonsUnderXvfb(t *testing.T) {
	d := xvfb.Start(t)
	daemon := func(name string) *Broker {
		seat, err := desktop.NewSeat(d.Display, "grant", name)
		if err != nil {
			t.Fatal(err)
		}
		desk := &fakeDesktop{windows: []Window{{ID: "0x5", App: "gedit", Title: "notes.txt - gedit", PID: 500, Bounds: image.Rect(100, 50, 900, 650), Focused: true}}}
		b := NewBroker(desk, Policy{}, &auditLog{}, nil)
		b.SetSeat(seat)
		return b
	}
	a, b := daemon("daemon A"), daemon("daemon B")
	ctx := context.Background()
	long := GrantRequest{Scope: ScopeDesktop, Budget: 10, IdleExpiry: time.Hour}
	refused := func(br *Broker, holder string) {
		t.Helper()
		_, _, err := br.Create(ctx, long)
		if code(err) != ops.CodeComputerGrantActive || !strings.Contains(err.Error(), holder) {
			t.Fatalf("a grant while %s holds the desktop's = %v; want %s naming it", holder, err, ops.CodeComputerGrantActive)
		}
	}
	ga, _, err := a.Create(ctx, long)
	if err != nil {
		t.Fatal(err)
	}
	refused(b, "daemon A")
	// Revoked: the other daemon's grant is issued, and this one's refused.
	if err := a.Revoke(ctx, ga.ID); err != nil {
		t.Fatal(err)
	}
	short := long
	short.IdleExpiry = 3 * time.Second
	_, expired, err := b.Create(ctx, short)
	if err != nil {
		t.Fatalf("a grant once the other daemon's was revoked: %v", err)
	}
	refused(a, "daemon B")
	// Expired without anything asking for it again (a short expiry, but
	// not so short that a busy machine lets it lapse before the check
	// above): the seat is let go.
	select {
	case <-expired:
	case <-time.After(10 * time.Second):
		t.Fatal("the idle grant did not expire")
	}
	if _, _, err := a.Create(ctx, long); err != nil {
		t.Fatalf("a grant once the other daemon's expired: %v", err)
	}
	refused(b, "daemon A")
	// The person's Stop lets it go too.
	a.Stop(ctx)
	if _, _, err := b.Create(ctx, long); err != nil {
		t.Fatalf("a grant once the person stopped the other daemon's: %v", err)
	}
}

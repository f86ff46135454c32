package computer

import (
	"context"
	"fmt"
	"time"

	"github.com/reprise-dev/reprise/ops"
)

// Seat is the one-grant-per-desktop rule across daemons: a lock tied to
// the display itself (replay/desktop.NewSeat: an X selection on X11, a
// file per console session elsewhere), which a broker holds while a grant
// of its is active. Two daemons on one display, whatever their data dirs
// or users, then never hold two grants at once.
type Seat interface {
	// Try takes the lock without waiting: its release, or the holder's
	// note and an error.
	Try() (release func(), holder string, err error)
}

// SetSeat makes b's grants exclusive across the daemons that set a seat
// on the same display: a grant request while another daemon's grant is
// active is refused, naming that daemon, until that grant is revoked,
// stopped or expires. Call it before the first grant.
func (b *Broker) SetSeat(s Seat) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seat = s
}

// takeSeat takes the seat for a grant about to be issued. Called with mu
// held.
func (b *Broker) takeSeat() (func(), error) {
	if b.seat == nil {
		return func() {}, nil
	}
	release, holder, err := b.seat.Try()
	if err == nil {
		return release, nil
	}
	if holder != "" {
		return nil, refuse(ops.CodeComputerGrantActive, "another daemon holds this desktop's grant (%s): one grant per desktop; it ends when revoked, stopped or idle past its expiry", holder)
	}
	return nil, fmt.Errorf("the desktop's grant seat: %w", err)
}

// expireLater ends g once it is idle past its expiry, so that its seat
// is let go for another daemon even when nothing here asks for g again.
func (b *Broker) expireLater(g *grant) {
	var check func()
	check = func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if b.active != g {
			return
		}
		idle := b.now().Sub(g.last)
		if idle > g.IdleExpiry {
			b.closeLocked(context.Background(), "computer.grant.expired", "")
			return
		}
		time.AfterFunc(g.IdleExpiry-idle+time.Millisecond, check)
	}
	time.AfterFunc(g.IdleExpiry+time.Millisecond, check)
}

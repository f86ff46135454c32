package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/client"
	"github.com/reprise-dev/reprise/ops"
	"github.com/reprise-dev/reprise/replay/desktop"
)

// grantGuard puts each desktop input to the daemon's broker under the
// grant the replay holds: the person's Stop, their deny list, reprise's own
// windows and a password being typed refuse it there.
type grantGuard struct {
	c  *client.Client
	id string
}

func (g grantGuard) Allow(ctx context.Context, in desktop.Intent) error {
	return g.c.Allow(ctx, g.id, api.Intent{Kind: in.Kind, Window: in.Window, Point: in.Point, Keyboard: in.Keyboard, TextLen: in.TextLen, Role: in.Role})
}

// holdDesktop takes the desktop's grant for a replay and returns its guard
// and its release. Where the daemon has no grants for this OS yet, the
// replay goes on unguarded, and says so.
func holdDesktop(ctx context.Context, c *client.Client, log *slog.Logger) (desktop.Guard, func(), error) {
	g, err := c.HoldGrant(ctx, api.HoldRequest{})
	var refused *ops.Error
	if errors.As(err, &refused) && refused.Code == ops.CodeComputerPlatformUnsupported {
		log.Warn("desktop replay without a scope grant: grants are not built for this OS yet", "reason", refused.Message)
		return nil, func() {}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("a desktop replay holds this desktop's grant: %w", err)
	}
	release := func() {
		// Stop may have revoked it already: nothing left to release.
		_ = c.Revoke(context.WithoutCancel(ctx), g.ID)
	}
	return grantGuard{c: c, id: g.ID}, release, nil
}

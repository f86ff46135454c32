package computer

import (
	"context"
	"log/slog"
	"strings"
	"time"
)

// Notifier shows the person a desktop notification. It must not block
// for long: it runs under the broker's lock.
type Notifier interface {
	Notify(ctx context.Context, summary, body string) error
}

// noticeOf is the notification for a grant event, or "" for events the
// person need not see (each action is audited, not announced).
func noticeOf(kind string, f map[string]string) (summary, body string) {
	app := f["target_app"]
	if app == "" || app == "unknown" {
		app = "this desktop" // a replay's grant, bound as its steps land
	}
	switch kind {
	case "computer.grant.created":
		return "reprise may operate " + app, "A " + f["scope"] + " grant (" + f["capture"] + ") is active. Run `reprise stop` to end it."
	case "computer.grant.rebound":
		return "reprise now operates " + app, "The grant moved to another window. Run `reprise stop` to end it."
	case "computer.grant.stopped":
		return "reprise stopped", "The grant on " + app + " is revoked; programs may not take another for 30 s."
	case "computer.stopped":
		return "reprise stopped", "No grant was active; programs may not take one for 30 s."
	}
	if strings.HasPrefix(kind, "computer.grant.") && kind != "computer.grant.rebind_refused" {
		why := strings.TrimPrefix(kind, "computer.grant.")
		return "reprise no longer operates " + app, "The grant ended (" + strings.ReplaceAll(why, "_", " ") + ")."
	}
	return "", ""
}

// notifying is an Auditor that also tells the person when a grant begins,
// moves and ends: the indicator the grants design asks for, as the
// desktop's own notifications.
type notifying struct {
	next Auditor
	n    Notifier
	log  *slog.Logger
}

func (a notifying) Append(ctx context.Context, kind string, fields map[string]string) error {
	if summary, body := noticeOf(kind, fields); summary != "" {
		nctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		err := a.n.Notify(nctx, summary, body)
		cancel()
		if err != nil {
			a.log.Debug("desktop notification not shown", "err", err)
		}
	}
	if a.next == nil {
		return nil
	}
	return a.next.Append(ctx, kind, fields)
}

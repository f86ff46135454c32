package computer

import (
	"context"
	"fmt"
	"strconv"

	"github.com/reprise-dev/reprise/internal/termtext"
	"github.com/reprise-dev/reprise/ops"
)

// confirm asks the person to confirm req's grant on w and returns how they
// said yes. A no, no answer or nobody to ask refuses the grant, audited.
func (s *Service) confirm(ctx context.Context, b *Broker, req GrantRequest, w Window) (string, error) {
	req = withDefaults(req)
	why := "no_way_to_ask"
	if s.Confirm != nil {
		by, err := s.Confirm(ctx, "Let reprise act on your desktop?", grantQuestion(req, w))
		if err == nil {
			return by, nil
		}
		why = "not_confirmed"
		s.logger().Info("a grant as the person's was not confirmed", "err", err)
		b.recordNotConfirmed(ctx, req, w, why)
		return "", refuse(ops.CodeComputerGrantNotConfirmed, "the person did not confirm the grant (%v)", err)
	}
	b.recordNotConfirmed(ctx, req, w, why)
	return "", refuse(ops.CodeComputerGrantNotConfirmed, "a grant as the person's needs their confirmation, and this daemon has no way to ask them")
}

// grantQuestion says what the grant lets a program do, in the person's
// words. The window's title and app come from other programs: printed
// escaped, so they cannot rewrite the question on a terminal.
func grantQuestion(req GrantRequest, w Window) string {
	target := "whichever window each action lands in"
	if w.ID != "" {
		target = fmt.Sprintf("the window %q of %s", termtext.Line(w.Title), termtext.Line(w.App))
	}
	capture := "reading its controls (no screenshots)"
	if req.Capture == CapturePixels {
		capture = "reading its controls and taking screenshots"
	}
	return fmt.Sprintf("A request for a desktop grant in your name asks to type and click in %s (%s scope), %s, for up to %d actions, ending after %s without one.\n\n"+
		"Any program of yours can make that request: if you did not, answer No.", target, req.Scope, capture, req.Budget, req.IdleExpiry)
}

// recordNotConfirmed audits a person's grant that was not confirmed:
// which kind of grant, never the window's title.
func (b *Broker) recordNotConfirmed(ctx context.Context, req GrantRequest, w Window, why string) {
	if b.audit == nil {
		return
	}
	f := map[string]string{"scope": req.Scope, "issuer": req.Issuer, "capture": req.Capture, "budget": strconv.Itoa(req.Budget), "why": why}
	if w.App != "" {
		f["target_app"] = auditCode(w.App)
	}
	_ = b.audit.Append(context.WithoutCancel(ctx), "computer.grant.not_confirmed", f)
}

// recordRefused audits a grant request the broker refused (one active
// already, Stop's cooldown, no window it may bind): its kind and the code.
func (b *Broker) recordRefused(ctx context.Context, req GrantRequest, err error) {
	if b.audit == nil {
		return
	}
	f := map[string]string{"scope": req.Scope, "issuer": req.Issuer, "capture": req.Capture, "budget": strconv.Itoa(req.Budget), "result": auditCode(codeOf(err))}
	_ = b.audit.Append(context.WithoutCancel(ctx), "computer.grant.refused", f)
}

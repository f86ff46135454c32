package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/audit"
	"github.com/reprise-dev/reprise/consent"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// Ways the daemon may ask the person for consent.
const (
	// PromptAuto asks everywhere it can at once: the daemon's terminal, an
	// OS dialog, and `reprise consent approve` at another terminal.
	PromptAuto = "auto"
	// PromptCLI asks only through `reprise consent` (and `reprise record
	// start`, which answers it for the person at that terminal).
	PromptCLI = "cli"
)

// requester names who asks in the consent copy: the wire does not say
// whether the platform or a local program sent the request.
const requester = "the app that asked to record"

// consentGate issues consent tokens after the person approves, and checks
// them at START_RECORDING.
type consentGate struct {
	issuer   *consent.Issuer
	approver *consent.Approver
	person   *consent.Approver // a dialog or the daemon's terminal only
	audit    *auditor
	log      *slog.Logger
	stop     func()
}

func newConsentGate(ctx context.Context, d *Daemon) (*consentGate, error) {
	key, err := consent.SigningKey(d.keys)
	if err != nil {
		return nil, fmt.Errorf("consent signing key: %w", err)
	}
	used, err := d.js.KeyValue(ctx, events.BucketConsent)
	if err != nil {
		return nil, fmt.Errorf("consent bucket: %w", err)
	}
	issuer, err := consent.NewIssuer(consent.IssuerConfig{Key: key, MachineID: d.srv.MachineID(), Used: used})
	if err != nil {
		return nil, err
	}
	choices, err := consent.OpenChoices(ctx, d.js)
	if err != nil {
		return nil, err
	}
	pending := consent.NewPending()
	stop, err := consent.Serve(d.nc, pending, choices)
	if err != nil {
		return nil, err
	}
	// The same prompters, one reader of the daemon's terminal, serve both.
	personal := osPrompters(d.log)
	prompters := []consent.Prompter{pending}
	if d.promptMode != PromptCLI {
		prompters = append(prompters, personal...)
	}
	approver := &consent.Approver{Choices: choices, Prompters: prompters, Timeout: 2 * time.Minute, Logger: d.log}
	// What the person alone may do is confirmed only where a person
	// answers: never through the pending prompts, which any program
	// holding the CLI's credentials can answer.
	person := &consent.Approver{Prompters: personal, Timeout: api.GrantConfirmWait, Logger: d.log}
	return &consentGate{issuer: issuer, approver: approver, person: person, audit: d.audit, log: d.log, stop: stop}, nil
}

// confirm asks the person, where only a person answers, to confirm what
// they alone may do, and returns which prompter they answered.
func (g *consentGate) confirm(ctx context.Context, title, body string) (string, error) {
	return g.person.Confirm(ctx, api.ConsentPrompt{Title: title, Body: body, Approve: "Allow", Deny: "Don't allow", Requester: "a program using the reprise CLI"})
}

// osPrompters are the local person's ways to answer on this machine: the
// daemon's own terminal and the OS dialogs. Each says itself whether it is
// available when asked.
func osPrompters(log *slog.Logger) []consent.Prompter {
	return []consent.Prompter{
		&consent.Terminal{In: os.Stdin, Out: os.Stderr},
		&consent.Zenity{}, &consent.KDialog{},
		&consent.OSAScript{}, &consent.MessageBox{Logger: log},
	}
}

func (g *consentGate) request(ctx context.Context, req ops.ConsentRequest) (ops.ConsentResult, error) {
	cr := consent.Request(req)
	cr.Normalize()
	if err := cr.Validate(); err != nil {
		return ops.ConsentResult{}, ops.Errorf(ops.CodeInvalidRequest, "%v", err)
	}
	no := ops.ConsentResult{Mode: cr.Mode, InterpretationRoute: cr.InterpretationRoute}
	v, err := g.approver.Decide(ctx, cr, requester)
	switch {
	case errors.Is(err, consent.ErrNoPrompter):
		g.record(ctx, audit.KindConsentRefused, cr, "nobody_to_ask")
		return no, ops.Errorf(ops.CodeConsentRequired, "nobody on this machine could be asked (%v)", err)
	case err != nil:
		return no, err
	case !v.Approved:
		reason := "declined"
		if v.By == consent.ByTimeout {
			reason = "timeout"
		}
		g.record(ctx, audit.KindConsentRefused, cr, reason)
		return no, nil
	}
	token, expires, err := g.issuer.Issue(cr)
	if err != nil {
		return no, err
	}
	g.record(ctx, audit.KindConsentIssued, cr, "")
	return ops.ConsentResult{Approved: true, Mode: cr.Mode, InterpretationRoute: cr.InterpretationRoute, ConsentToken: token, ExpiresAt: float64(expires.UnixNano()) / 1e9}, nil
}

func (g *consentGate) consume(ctx context.Context, token, mode, route string, channels []string) error {
	req := consent.Request{Mode: mode, InterpretationRoute: route, Channels: channels}
	err := g.issuer.Consume(ctx, token, req)
	var refused *consent.RefusedError
	switch {
	case errors.As(err, &refused):
		g.record(ctx, audit.KindConsentRefused, req, string(refused.Reason))
	case err == nil:
		g.record(ctx, audit.KindConsentUsed, req, "")
	}
	return err
}

// record writes a content-free consent entry: what kind of recording, and
// for a refusal a reason code.
func (g *consentGate) record(ctx context.Context, kind string, req consent.Request, reason string) {
	fields := map[string]string{audit.FieldMode: req.Mode, audit.FieldRoute: req.InterpretationRoute, audit.FieldChannels: strings.Join(req.Channels, ",")}
	if reason != "" {
		fields[audit.FieldReason] = reason
	}
	if err := g.audit.Append(ctx, kind, fields); err != nil {
		g.log.Error("audit entry not written", "kind", kind, "err", err)
	}
}

func (g *consentGate) close() {
	if g != nil && g.stop != nil {
		g.stop()
	}
}

package computer

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// ServiceName is the grant service's name in `nats micro ls`.
const ServiceName = "reprise-computer"

// Service serves the broker to the local CLI. The desktop is opened at the
// first request that needs it: a daemon without a display still starts.
type Service struct {
	Open   func() (Desktop, error)
	Policy Policy
	Audit  Auditor
	Log    *slog.Logger
	// Notifier, if set, tells the person when a grant begins, moves and
	// ends.
	Notifier Notifier
	// Run, if set, serves `reprise computer run` through the broker: the
	// daemon plugs in package script, so this one stays free of the JS
	// engine. RunTimeout bounds one request.
	Run        func(ctx context.Context, b *Broker, body []byte) (any, error)
	RunTimeout time.Duration
	// Confirm asks the person to confirm a grant issued as theirs, through
	// a way only they answer (a dialog on the desktop, the daemon's own
	// terminal), and returns which way they said yes. Without it a
	// person's grant is refused.
	Confirm func(ctx context.Context, title, body string) (by string, err error)
	// Seat, if set, makes the grant one per display across daemons
	// (Broker.SetSeat): the daemon passes desktop.NewSeat(DISPLAY,
	// "grant", a note naming itself).
	Seat Seat

	once   sync.Once
	broker *Broker
	err    error
}

// Broker returns the one broker of this desktop, opening it once.
func (s *Service) Broker() (*Broker, error) {
	s.once.Do(func() {
		d, err := s.Open()
		if err != nil {
			s.err = err
			return
		}
		audit := s.Audit
		if s.Notifier != nil {
			audit = notifying{next: s.Audit, n: s.Notifier, log: s.logger()}
		}
		s.broker = NewBroker(d, s.Policy, audit, nil)
		if s.Seat != nil {
			s.broker.SetSeat(s.Seat)
		}
	})
	return s.broker, s.err
}

// Serve answers the computer subjects until nc closes.
func (s *Service) Serve(nc *nats.Conn) (*ops.Local, error) {
	if s.Log == nil {
		s.Log = slog.New(slog.DiscardHandler)
	}
	ep := func(name, subject string, h func(context.Context, []byte) (any, error)) ops.Endpoint {
		return ops.Endpoint{Name: name, Subject: subject, Timeout: s.timeout(name), Concurrent: name == "run", Handle: func(ctx context.Context, body []byte) ([]byte, error) {
			v, err := h(ctx, body)
			if err != nil {
				return nil, err
			}
			return json.Marshal(v)
		}}
	}
	eps := []ops.Endpoint{
		ep("targets", events.LocalComputerTargets, s.targets),
		ep("grant", events.LocalComputerGrant, s.create),
		ep("describe", events.LocalComputerDescribe, s.describe),
		ep("revoke", events.LocalComputerRevoke, s.revoke),
		ep("stop", events.LocalComputerStop, s.stop),
		ep("hold", events.LocalComputerHold, s.hold),
		ep("allow", events.LocalComputerAllow, s.allow),
	}
	if s.Run != nil {
		eps = append(eps, ep("run", events.LocalComputerRun, s.run))
	}
	return ops.ServeLocal(nc, ops.LocalService{
		Name: ServiceName, Description: "scope grants on this desktop: targets, grant, revoke, stop, run",
		Endpoints: eps, Logger: s.Log,
	})
}

func (s *Service) logger() *slog.Logger {
	if s.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Log
}

func (s *Service) timeout(endpoint string) time.Duration {
	switch endpoint {
	case "run":
		return s.RunTimeout
	case "grant":
		return api.GrantConfirmWait + 15*time.Second
	}
	return 0
}

func (s *Service) run(ctx context.Context, body []byte) (any, error) {
	b, err := s.Broker()
	if err != nil {
		return nil, err
	}
	return s.Run(ctx, b, body)
}

func (s *Service) targets(ctx context.Context, body []byte) (any, error) {
	if err := ops.DecodeLocal("computer targets", body, &struct{}{}); err != nil {
		return nil, err
	}
	b, err := s.Broker()
	if err != nil {
		return nil, err
	}
	ts, err := b.Targets(ctx)
	if ts == nil {
		ts = []api.Target{}
	}
	return api.TargetListReply{Targets: ts}, err
}

func (s *Service) create(ctx context.Context, body []byte) (any, error) {
	var req api.CreateGrantRequest
	if err := ops.DecodeLocal("computer grant", body, &req); err != nil {
		return nil, err
	}
	var idle time.Duration
	if req.Idle != "" {
		var err error
		if idle, err = time.ParseDuration(req.Idle); err != nil || idle <= 0 {
			return nil, refuse(ops.CodeComputerInvalidRequest, "idle_expiry %q is not a positive duration such as 5m", req.Idle)
		}
	}
	b, err := s.Broker()
	if err != nil {
		return nil, err
	}
	// A grant asked for from the CLI is issued as the person's own (it
	// clears a Stop's cooldown), so the person confirms it: any program
	// can hold the CLI's credentials.
	gr := GrantRequest{Scope: req.Scope, TargetID: req.WindowID, Issuer: IssuerUser, Capture: req.Capture, Budget: req.Budget, IdleExpiry: idle}
	w, err := b.Preview(ctx, gr)
	if err != nil {
		return nil, err
	}
	if gr.ConfirmedBy, err = s.confirm(ctx, b, gr, w); err != nil {
		return nil, err
	}
	gr.TargetID = w.ID // the window the person was shown, none other
	g, _, err := b.Create(ctx, gr)
	if err != nil {
		return nil, err
	}
	if g.Target.Identity != w.Identity {
		_ = b.Revoke(ctx, g.ID)
		return nil, refuse(ops.CodeComputerGrantNotConfirmed, "window %s changed hands while you were asked (now %s): grant again", w.ID, g.Target.App)
	}
	return view(g), nil
}

// ReplayBudget and ReplayIdle are a replay's grant when it asks for no
// other: a replay waits for the person to leave the machine alone, so its
// idle expiry is longer than a person's grant.
const (
	ReplayBudget = 100000
	ReplayIdle   = 30 * time.Minute
)

// hold issues a program's grant: refused during Stop's cooldown and while
// another grant is active.
func (s *Service) hold(ctx context.Context, body []byte) (any, error) {
	var req api.HoldRequest
	if err := ops.DecodeLocal("computer hold", body, &req); err != nil {
		return nil, err
	}
	idle := ReplayIdle
	if req.Idle != "" {
		var err error
		if idle, err = time.ParseDuration(req.Idle); err != nil || idle <= 0 {
			return nil, refuse(ops.CodeComputerInvalidRequest, "idle_expiry %q is not a positive duration such as 5m", req.Idle)
		}
	}
	capture := CaptureA11y
	if req.Pixels {
		capture = CapturePixels
	}
	b, err := s.Broker()
	if err != nil {
		return nil, err
	}
	g, _, err := b.Create(ctx, GrantRequest{Scope: ScopeDesktop, Issuer: IssuerAgent, Capture: capture, Budget: cmp.Or(req.Budget, ReplayBudget), IdleExpiry: idle, Unbound: true})
	if err != nil {
		return nil, err
	}
	return view(g), nil
}

func (s *Service) allow(ctx context.Context, body []byte) (any, error) {
	var req api.AllowRequest
	if err := ops.DecodeLocal("computer allow", body, &req); err != nil {
		return nil, err
	}
	b, err := s.Broker()
	if err != nil {
		return nil, err
	}
	return struct{}{}, b.Allow(ctx, req.GrantID, req.Intent)
}

func (s *Service) describe(_ context.Context, body []byte) (any, error) {
	if err := ops.DecodeLocal("computer describe", body, &struct{}{}); err != nil {
		return nil, err
	}
	b, err := s.Broker()
	if err != nil {
		return nil, err
	}
	g, ok := b.Describe()
	if !ok {
		return api.GrantReply{}, nil
	}
	return view(g), nil
}

func (s *Service) revoke(ctx context.Context, body []byte) (any, error) {
	var req api.RevokeRequest
	if err := ops.DecodeLocal("computer revoke", body, &req); err != nil {
		return nil, err
	}
	b, err := s.Broker()
	if err != nil {
		return nil, err
	}
	return struct{}{}, b.Revoke(ctx, req.GrantID)
}

// stop is the person's Stop: it needs no desktop open, so it always works.
func (s *Service) stop(ctx context.Context, body []byte) (any, error) {
	if err := ops.DecodeLocal("computer stop", body, &struct{}{}); err != nil {
		return nil, err
	}
	b, err := s.Broker()
	if err != nil {
		return api.GrantReply{}, nil // no desktop, no grant: nothing to stop
	}
	g, ok := b.Describe()
	b.Stop(ctx)
	if !ok {
		return api.GrantReply{}, nil
	}
	return view(g), nil
}

func view(g Grant) api.GrantReply {
	return api.GrantReply{Active: true, ID: g.ID, Scope: g.Scope, Issuer: g.Issuer, App: g.Target.App, Title: g.Target.Title,
		WindowID: g.Target.ID, Revision: g.Revision, Capture: g.Capture, Budget: g.Budget}
}

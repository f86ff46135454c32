package computer

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"image"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

// StopCooldown is how long after Stop a program may not issue itself a
// grant: else the same run's next call would take another at once.
const StopCooldown = 30 * time.Second

// Defaults of a grant request that leaves them out.
const (
	DefaultBudget     = 200
	DefaultIdleExpiry = 5 * time.Minute
)

// GrantRequest asks for the one grant.
type GrantRequest struct {
	Scope      string        // ScopeDesktop (default) or ScopeWindow
	TargetID   string        // the window to bind; "" binds the front one a desktop grant may
	Issuer     string        // IssuerAgent (default) or IssuerUser
	Capture    string        // CaptureA11y (default) or CapturePixels
	Budget     int           // input actions before the grant closes
	IdleExpiry time.Duration // how long without an action before it closes
	// Unbound issues a desktop grant bound to no window yet: each action
	// binds the window it lands in (a replay, whose app may not be up).
	Unbound bool
	// ConfirmedBy names how the person confirmed a grant issued as theirs
	// (the prompter they answered), for the audit.
	ConfirmedBy string
}

// Grant is the active grant as callers see it.
type Grant struct {
	ID         string
	Scope      string
	Issuer     string
	Capture    string
	Target     Window
	Revision   uint64
	Budget     int // left
	IdleExpiry time.Duration
}

// Basis is what coordinates were measured on: the grant's revision and the
// window's bounds when the screenshot was taken.
type Basis struct {
	Revision uint64
	Bounds   image.Rectangle
}

// Auditor records what the broker did, without content: grant ids,
// scopes, issuers, apps, action kinds, results.
type Auditor interface {
	Append(ctx context.Context, kind string, fields map[string]string) error
}

// Broker holds the one active grant of a desktop and checks every action
// against it. Methods are safe for concurrent use.
type Broker struct {
	desktop Desktop
	policy  Policy
	audit   Auditor
	now     func() time.Time

	mu        sync.Mutex
	active    *grant
	stoppedAt time.Time
	seat      Seat // the grant's lock across daemons, if set
}

// grant is the active grant and what the broker keeps of it.
type grant struct {
	Grant
	last time.Time // the last action, or the grant's creation
	// abort is closed by Stop and Revoke: what holds the grant ends.
	abort chan struct{}
	// release lets the seat go, for another daemon's grant.
	release func()
	// follows says the grant follows whichever window each action lands
	// in (a replay's, issued Unbound): a window that changed hands is
	// rebound, every refusal run on it again, instead of ending it.
	follows bool
}

// NewBroker returns a broker over d. now is the clock (nil: time.Now).
func NewBroker(d Desktop, p Policy, a Auditor, now func() time.Time) *Broker {
	if now == nil {
		now = time.Now
	}
	return &Broker{desktop: d, policy: p, audit: a, now: now}
}

// Targets lists every window, the refused ones with their reason.
func (b *Broker) Targets(ctx context.Context) ([]api.Target, error) {
	ws, err := b.desktop.Windows(ctx)
	if err != nil {
		return nil, err
	}
	secure, err := b.desktop.SecureInput(ctx)
	if err != nil {
		return nil, err
	}
	var callers []int
	if b.policy.Callers != nil {
		callers = b.policy.Callers()
	}
	out := make([]api.Target, len(ws))
	for i, w := range ws {
		out[i].Window = w
		out[i].Refused, out[i].Reason = b.policy.Refuse(w)
		if out[i].Refused == "" && w.PID != 0 && slices.Contains(callers, w.PID) {
			out[i].Refused, out[i].Reason = ops.CodeComputerSelfTargetRefused, "a window of a program connected to reprise (one that may have asked for this run), or of the terminal running it"
		}
		if out[i].Refused == "" && secure {
			out[i].Refused, out[i].Reason = ops.CodeComputerSecureInputRefused, "a password is being typed, or the OS reports secure input"
		}
	}
	return out, nil
}

// Create issues the grant, bound to req.TargetID or, for a desktop grant,
// to the front window reprise may operate. It returns a channel closed
// when the grant is stopped or revoked.
func (b *Broker) Create(ctx context.Context, req GrantRequest) (Grant, <-chan struct{}, error) {
	req = withDefaults(req)
	if err := check(req); err != nil {
		return Grant{}, nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	g, abort, err := b.createLocked(ctx, req)
	if err != nil {
		// Who asked for a grant and was refused is on record too: a
		// program trying again and again during Stop's cooldown shows.
		b.recordRefused(ctx, req, err)
	}
	return g, abort, err
}

func (b *Broker) createLocked(ctx context.Context, req GrantRequest) (Grant, <-chan struct{}, error) {
	if b.active != nil {
		return Grant{}, nil, refuse(ops.CodeComputerGrantActive, "grant %s is active: one grant per desktop; revoke it first", b.active.ID)
	}
	now := b.now()
	if req.Issuer == IssuerAgent && !b.stoppedAt.IsZero() && now.Sub(b.stoppedAt) < StopCooldown {
		left := StopCooldown - now.Sub(b.stoppedAt)
		return Grant{}, nil, refuse(ops.CodeComputerStoppedByUser, "the person pressed Stop; a program may take a grant again in %s", left.Round(time.Second))
	}
	if req.Issuer == IssuerUser {
		b.stoppedAt = time.Time{}
	}
	return b.create(ctx, req, now)
}

// Preview is the window Create would bind for req, and req's refusals,
// without issuing anything: what the person is asked to confirm.
func (b *Broker) Preview(ctx context.Context, req GrantRequest) (Window, error) {
	req = withDefaults(req)
	if err := check(req); err != nil {
		return Window{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.active != nil {
		return Window{}, refuse(ops.CodeComputerGrantActive, "grant %s is active: one grant per desktop; revoke it first", b.active.ID)
	}
	if req.Unbound && req.Scope == ScopeDesktop {
		return Window{}, nil
	}
	return b.pick(ctx, req.TargetID)
}

func check(req GrantRequest) error {
	if req.Scope != ScopeDesktop && req.Scope != ScopeWindow {
		return refuse(ops.CodeComputerInvalidRequest, "scope must be %s or %s", ScopeDesktop, ScopeWindow)
	}
	if req.Capture != CaptureA11y && req.Capture != CapturePixels {
		return refuse(ops.CodeComputerInvalidRequest, "capture must be %s or %s", CaptureA11y, CapturePixels)
	}
	if req.Issuer != IssuerAgent && req.Issuer != IssuerUser {
		return refuse(ops.CodeComputerInvalidRequest, "issuer must be %s or %s", IssuerAgent, IssuerUser)
	}
	if req.Budget < 1 || req.IdleExpiry <= 0 {
		return refuse(ops.CodeComputerInvalidRequest, "a grant needs a budget of at least one action and an idle expiry")
	}
	if req.Scope == ScopeWindow && req.TargetID == "" {
		return refuse(ops.CodeComputerInvalidRequest, "a window grant names its window")
	}
	return nil
}

// create issues req's grant; b.mu is held.
func (b *Broker) create(ctx context.Context, req GrantRequest, now time.Time) (Grant, <-chan struct{}, error) {
	release, err := b.takeSeat()
	if err != nil {
		return Grant{}, nil, err
	}
	var w Window
	if !req.Unbound || req.Scope != ScopeDesktop {
		if w, err = b.pick(ctx, req.TargetID); err != nil {
			release()
			return Grant{}, nil, err
		}
	}
	id, err := newGrantID()
	if err != nil {
		release()
		return Grant{}, nil, err
	}
	g := &grant{Grant: Grant{ID: id, Scope: req.Scope, Issuer: req.Issuer, Capture: req.Capture, Target: w, Revision: 1, Budget: req.Budget, IdleExpiry: req.IdleExpiry},
		last: now, abort: make(chan struct{}), release: release, follows: req.Unbound && req.Scope == ScopeDesktop}
	b.active = g
	if b.seat != nil {
		b.expireLater(g)
	}
	fields := map[string]string{"issuer": req.Issuer, "capture": req.Capture, "budget": strconv.Itoa(req.Budget)}
	if req.ConfirmedBy != "" {
		fields["confirmed_by"] = req.ConfirmedBy
	}
	b.record(ctx, "computer.grant.created", g.Grant, fields)
	return g.Grant, g.abort, nil
}

func withDefaults(r GrantRequest) GrantRequest {
	if r.Scope == "" {
		r.Scope = ScopeDesktop
	}
	if r.Issuer == "" {
		r.Issuer = IssuerAgent
	}
	if r.Capture == "" {
		r.Capture = CaptureA11y
	}
	if r.Budget == 0 {
		r.Budget = DefaultBudget
	}
	if r.IdleExpiry == 0 {
		r.IdleExpiry = DefaultIdleExpiry
	}
	return r
}

// pick runs every refusal on a fresh listing and returns the window to
// bind: id's, or the front one reprise may operate.
func (b *Broker) pick(ctx context.Context, id string) (Window, error) {
	ts, err := b.Targets(ctx)
	if err != nil {
		return Window{}, err
	}
	for _, t := range ts {
		if id != "" && t.ID != id {
			continue
		}
		if t.Refused != "" {
			if id == "" {
				continue
			}
			return Window{}, refuse(t.Refused, "window %s (%s) is refused: %s", t.ID, t.App, t.Reason)
		}
		return t.Window, nil
	}
	if id != "" {
		return Window{}, refuse(ops.CodeComputerTargetNotFound, "no window %s: list the targets again", id)
	}
	return Window{}, refuse(ops.CodeComputerNoTarget, "no window reprise may operate is open")
}

// Rebind binds the desktop grant to another window; refusals run again
// on a fresh listing, and the revision advances.
func (b *Broker) Rebind(ctx context.Context, grantID, targetID string) (Grant, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	g, err := b.current(grantID)
	if err != nil {
		return Grant{}, err
	}
	if g.Scope == ScopeWindow {
		err := refuse(ops.CodeComputerOutOfScope, "grant %s is pinned to window %s: rebinding is out of its scope", g.ID, g.Target.ID)
		b.record(ctx, "computer.grant.rebind_refused", g.Grant, map[string]string{"result": codeOf(err)})
		return Grant{}, err
	}
	w, err := b.pick(ctx, targetID)
	if err != nil {
		b.record(ctx, "computer.grant.rebind_refused", g.Grant, map[string]string{"result": codeOf(err)})
		return Grant{}, err
	}
	g.Target, g.Revision = w, g.Revision+1
	b.record(ctx, "computer.grant.rebound", g.Grant, nil)
	return g.Grant, nil
}

// current is the active grant if it is id's and alive; an idle one is
// closed. Called with mu held.
func (b *Broker) current(id string) (*grant, error) {
	g := b.active
	if g == nil || g.ID != id {
		return nil, refuse(ops.CodeComputerNoGrant, "grant %s is not active: take a grant first", id)
	}
	if b.now().Sub(g.last) > g.IdleExpiry {
		b.closeLocked(context.Background(), "computer.grant.expired", "")
		return nil, refuse(ops.CodeComputerGrantExpired, "grant %s expired after %s without an action", id, g.IdleExpiry)
	}
	return g, nil
}

// Describe returns the active grant, if any.
func (b *Broker) Describe() (Grant, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.active == nil {
		return Grant{}, false
	}
	// An idle grant is over whether or not anything asked since: it ends
	// here, audited, rather than showing as active.
	g, err := b.current(b.active.ID)
	if err != nil {
		return Grant{}, false
	}
	return g.Grant, true
}

// Done returns the channel closed when grant id ends (Stop, Revoke,
// expiry, its window closing): what holds the grant aborts on it.
func (b *Broker) Done(id string) (<-chan struct{}, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	g, err := b.current(id)
	if err != nil {
		return nil, err
	}
	return g.abort, nil
}

// Note audits something a holder of grant id did that is not input to a
// window (a clipboard read or write): content-free fields only.
func (b *Broker) Note(ctx context.Context, id, kind string, fields map[string]string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	g, err := b.current(id)
	if err != nil {
		return err
	}
	g.last = b.now()
	b.record(ctx, kind, g.Grant, fields)
	return nil
}

// Revoke ends grant id.
func (b *Broker) Revoke(ctx context.Context, id string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.active == nil || b.active.ID != id {
		return refuse(ops.CodeComputerNoGrant, "grant %s is not active", id)
	}
	b.closeLocked(ctx, "computer.grant.revoked", "")
	return nil
}

// Stop is the person's Stop: the grant is revoked, what holds it is
// aborted, and for StopCooldown a program may not issue itself another.
func (b *Broker) Stop(ctx context.Context) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stoppedAt = b.now()
	if b.active != nil {
		b.closeLocked(ctx, "computer.grant.stopped", "")
	} else if b.audit != nil {
		_ = b.audit.Append(ctx, "computer.stopped", map[string]string{})
	}
}

func (b *Broker) closeLocked(ctx context.Context, kind, why string) {
	g := b.active
	b.active = nil
	// Audited before the grant's context ends: what it aborts then is
	// already on record as ended.
	var extra map[string]string
	if why != "" {
		extra = map[string]string{"why": why}
	}
	b.record(ctx, kind, g.Grant, extra)
	close(g.abort)
	if g.release != nil {
		g.release()
	}
}

// record audits an event of g: ids, scope, app and result, no content.
func (b *Broker) record(ctx context.Context, kind string, g Grant, extra map[string]string) {
	if b.audit == nil {
		return
	}
	f := map[string]string{"grant_id": g.ID, "scope": g.Scope, "issuer": g.Issuer, "target_app": auditCode(g.Target.App), "revision": strconv.FormatUint(g.Revision, 10)}
	for k, v := range extra {
		f[k] = auditCode(v)
	}
	// The caller may be leaving (a Stop cancels what holds the grant):
	// what happened is audited all the same.
	_ = b.audit.Append(context.WithoutCancel(ctx), kind, f)
}

// auditCode is v as the audit log takes a value: a lower-case code of
// [a-z0-9_-], at most 64 bytes ("Google Chrome" -> "google-chrome", a
// refusal's COMPUTER_ code lower-cased, a uid's dots as dashes).
func auditCode(v string) string {
	b := []byte(strings.ToLower(v))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '-'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if len(b) == 0 {
		return "unknown"
	}
	return string(b)
}

func codeOf(err error) string {
	if e, ok := err.(*ops.Error); ok {
		return e.Code
	}
	return "error"
}

func newGrantID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return "grant_" + hex.EncodeToString(b[:]), nil
}

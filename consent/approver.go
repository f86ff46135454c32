package consent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/reprise-dev/reprise/api"
)

// DefaultApprovalTimeout is how long the Approver waits for a person; no
// answer in that time is a no.
const DefaultApprovalTimeout = 2 * time.Minute

// ErrNoPrompter means no prompter can reach a person here, so nobody could
// approve.
var ErrNoPrompter = errors.New("no way to ask the person on this machine")

// How a Verdict was reached, besides a prompter's Name.
const (
	ByRemembered = "remembered"
	ByTimeout    = "timeout"
)

// Verdict is the Approver's answer for one Request.
type Verdict struct {
	// Approved is true only when a person said yes, now or earlier for
	// this kind of recording.
	Approved bool
	// By is the prompter that got the answer, ByRemembered or ByTimeout.
	By string
}

// Approver decides one Request at a time: a remembered choice first, else it
// asks through every available prompter at once. Its fields are read-only
// once it is in use; Decide is safe for concurrent use.
type Approver struct {
	// Choices holds remembered answers; nil remembers nothing.
	Choices Choices
	// Prompters are tried together; the first answer wins and the others
	// are cancelled, which closes their dialogs.
	Prompters []Prompter
	// Timeout bounds the wait for a person; 0 means DefaultApprovalTimeout.
	Timeout time.Duration
	// Logger receives what happened, never the copy or a token; nil
	// discards it.
	Logger *slog.Logger
}

// Log keys.
const (
	logKind     = "kind"
	logPrompter = "prompter"
	logReason   = "reason"
	logErr      = "err"
)

// Decide returns whether the person approves req, asked by requester. It
// returns an error only when nobody could be asked, the request is invalid,
// or ctx ended; a timeout is a Verdict that is not approved.
func (a *Approver) Decide(ctx context.Context, req Request, requester string) (Verdict, error) {
	req.Normalize()
	if err := req.Validate(); err != nil {
		return Verdict{}, err
	}
	log := a.logger().With(logKind, req.Kind())
	if a.Choices != nil {
		c, ok, err := a.Choices.Get(ctx, req.Kind())
		switch {
		case err != nil:
			// Asking the person is always safe; not knowing a remembered
			// answer only costs them a question.
			log.Warn("remembered consent unavailable; asking", logErr, err)
		case ok:
			log.Info("consent decided by a remembered choice", "approved", c.Approved)
			return Verdict{Approved: c.Approved, By: ByRemembered}, nil
		}
	}
	var ready []Prompter
	var reasons []string
	for _, p := range a.Prompters {
		if ok, why := p.Available(); ok {
			ready = append(ready, p)
		} else {
			reasons = append(reasons, p.Name()+": "+why)
			log.Debug("prompter unavailable", logPrompter, p.Name(), logReason, why)
		}
	}
	if len(ready) == 0 {
		return Verdict{}, fmt.Errorf("%w (%s); run the daemon in a terminal or a desktop session", ErrNoPrompter, strings.Join(reasons, "; "))
	}
	prompt := NewPrompt(req, requester)
	d, by, err := a.ask(ctx, ready, prompt)
	if err != nil {
		return Verdict{}, err
	}
	if by == ByTimeout {
		log.Info("consent timed out; counted as no", "after", a.timeout())
		return Verdict{By: ByTimeout}, nil
	}
	log.Info("consent answered", logPrompter, by, "approved", d.Approved, "remember", d.Remember)
	if d.Remember && a.Choices != nil {
		if err := a.Choices.Set(ctx, req.Kind(), d.Approved); err != nil {
			// The answer stands for this recording either way.
			log.Warn("could not remember the consent answer", logErr, err)
		}
	}
	return Verdict{Approved: d.Approved, By: by}, nil
}

func (a *Approver) timeout() time.Duration {
	if a.Timeout > 0 {
		return a.Timeout
	}
	return DefaultApprovalTimeout
}

func (a *Approver) logger() *slog.Logger {
	if a.Logger != nil {
		return a.Logger.WithGroup("consent")
	}
	return slog.New(slog.DiscardHandler)
}

type answer struct {
	d   Decision
	by  string
	err error
}

// ask runs every prompter at once and returns the first decision and who
// gave it, or by == ByTimeout. It returns only after every prompter has
// stopped, so no dialog outlives the decision.
func (a *Approver) ask(parent context.Context, ps []Prompter, p api.ConsentPrompt) (Decision, string, error) {
	ctx, cancel := context.WithTimeout(parent, a.timeout())
	answers := make(chan answer, len(ps))
	var wg sync.WaitGroup
	for _, pr := range ps {
		wg.Go(func() {
			d, err := pr.Ask(ctx, p)
			answers <- answer{d, pr.Name(), err}
		})
	}
	// Cancel first: the prompters that lost close their dialogs and return.
	defer func() { cancel(); wg.Wait() }()
	var errs []error
	for left := len(ps); left > 0 && ctx.Err() == nil; {
		select {
		case r := <-answers:
			left--
			if r.err == nil {
				return r.d, r.by, nil
			}
			if ctx.Err() == nil {
				a.logger().Warn("prompter failed", logPrompter, r.by, logErr, r.err)
				errs = append(errs, fmt.Errorf("%s: %w", r.by, r.err))
			}
		case <-ctx.Done():
		}
	}
	switch {
	case parent.Err() != nil:
		return Decision{}, "", fmt.Errorf("ask for consent: %w", parent.Err())
	case ctx.Err() != nil:
		return Decision{}, ByTimeout, nil
	}
	return Decision{}, "", fmt.Errorf("every way to ask the person failed: %w", errors.Join(errs...))
}

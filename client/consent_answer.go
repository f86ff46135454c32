package client

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/ops"
)

// ConsentAnswer puts a prompt of the daemon's consent queue to the person
// who asked for the recording, and returns their answer; answered is false
// when decided closes first (another prompter of the daemon's, a dialog or
// `reprise consent`, answered it), and nothing is sent then.
type ConsentAnswer func(p api.ConsentPrompt, decided <-chan struct{}) (approve, remember, answered bool)

// consentPoll is how often RequestConsentAnswering looks for the prompt
// its request put in the daemon's queue.
const consentPoll = 50 * time.Millisecond

// RequestConsentAnswering sends REQUEST_RECORDING_CONSENT and, while the
// daemon waits for the person, offers each prompt the daemon queues for
// this request to answer, as `reprise record start` does at its terminal.
// Whichever of the daemon's prompters answers first wins; the reply says
// how it went either way.
func (c *Client) RequestConsentAnswering(ctx context.Context, req ops.ConsentRequest, answer ConsentAnswer) (ops.ConsentResult, error) {
	cl := c.Consent()
	before, err := cl.List(ctx)
	if err != nil {
		return ops.ConsentResult{}, err
	}
	seen := map[string]bool{}
	for _, p := range before {
		seen[p.ID] = true
	}
	type result struct {
		r   ops.ConsentResult
		err error
	}
	done := make(chan result, 1)
	// decided closes once the daemon has the answer, from whichever
	// prompter: a question still open here is then abandoned.
	decided := make(chan struct{})
	go func() {
		r, err := c.RequestConsent(ctx, req)
		done <- result{r, err}
		close(decided)
	}()
	tick := time.NewTicker(consentPoll)
	defer tick.Stop()
	for {
		select {
		case res := <-done:
			return res.r, res.err
		case <-ctx.Done():
			return ops.ConsentResult{}, ctx.Err()
		case <-tick.C:
		}
		prompts, err := cl.List(ctx)
		if err != nil {
			continue
		}
		for _, p := range prompts {
			if seen[p.ID] || !sameRequest(p.Request, req) {
				continue
			}
			seen[p.ID] = true
			approve, remember, answered := answer(p, decided)
			if !answered {
				break
			}
			// An error means another prompter answered first; the
			// request's reply says how.
			if approve {
				_ = cl.Approve(ctx, p.ID, remember)
			} else {
				_ = cl.Deny(ctx, p.ID)
			}
		}
	}
}

// sameRequest reports whether a and b ask for the same recording: their
// channels are compared as sets.
func sameRequest(a, b ops.ConsentRequest) bool {
	x, y := slices.Clone(a.Channels), slices.Clone(b.Channels)
	slices.Sort(x)
	slices.Sort(y)
	return a.Mode == b.Mode && a.InterpretationRoute == b.InterpretationRoute && slices.Equal(slices.Compact(x), slices.Compact(y))
}

// ErrConsentDeclined is a recording the person did not consent to.
var ErrConsentDeclined = errors.New("consent was declined; nothing is being recorded")

// Record asks for consent to the recording req describes
// (RequestConsentAnswering, with answer) and starts it with the token the
// approval gives; Started's route is the one consent granted when the
// daemon names none. A recording not approved is ErrConsentDeclined.
func (c *Client) Record(ctx context.Context, req ops.ConsentRequest, answer ConsentAnswer) (ops.Started, error) {
	result, err := c.RequestConsentAnswering(ctx, req, answer)
	if err != nil {
		return ops.Started{}, err
	}
	if !result.Approved {
		return ops.Started{}, ErrConsentDeclined
	}
	started, err := c.Start(ctx, ops.StartRequest{
		Mode: req.Mode, InterpretationRoute: result.InterpretationRoute, Channels: req.Channels, ConsentToken: result.ConsentToken,
	})
	started.InterpretationRoute = cmp.Or(started.InterpretationRoute, result.InterpretationRoute)
	return started, err
}

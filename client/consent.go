package client

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// consentTimeout bounds one request of a Consent.
const consentTimeout = 10 * time.Second

// Consent talks to the daemon's consent queue (package consent serves
// it), as `reprise consent` does.
type Consent struct {
	nc *nats.Conn
}

// NewConsent returns a Consent on nc, the local CLI's connection.
func NewConsent(nc *nats.Conn) *Consent { return &Consent{nc: nc} }

// Consent is the client of the daemon's consent queue.
func (c *Client) Consent() *Consent { return NewConsent(c.nc) }

// List returns the prompts waiting for an answer, oldest first.
func (c *Consent) List(ctx context.Context) ([]api.ConsentPrompt, error) {
	r, err := c.call(ctx, events.LocalConsentList, nil)
	if r.Prompts == nil {
		r.Prompts = []api.ConsentPrompt{}
	}
	return r.Prompts, err
}

// Approve answers prompt id with yes; remember keeps the answer for every
// recording of its kind.
func (c *Consent) Approve(ctx context.Context, id string, remember bool) error {
	_, err := c.call(ctx, events.LocalConsentApprove, api.ConsentAnswerRequest{ID: id, Remember: remember})
	return err
}

// Deny answers prompt id with no.
func (c *Consent) Deny(ctx context.Context, id string) error {
	_, err := c.call(ctx, events.LocalConsentDeny, api.ConsentAnswerRequest{ID: id})
	return err
}

// Choices returns the remembered answers.
func (c *Consent) Choices(ctx context.Context) ([]api.ConsentChoice, error) {
	r, err := c.call(ctx, events.LocalConsentChoices, nil)
	if r.Choices == nil {
		r.Choices = []api.ConsentChoice{}
	}
	return r.Choices, err
}

// Forget drops the remembered answer for kind and says whether there was
// one (1) or not (0).
func (c *Consent) Forget(ctx context.Context, kind string) (int, error) {
	r, err := c.call(ctx, events.LocalConsentForget, api.ConsentForgetRequest{Kind: kind})
	return r.Forgotten, err
}

// ForgetAll drops every remembered answer and says how many there were.
func (c *Consent) ForgetAll(ctx context.Context) (int, error) {
	r, err := c.call(ctx, events.LocalConsentForget, api.ConsentForgetRequest{All: true})
	return r.Forgotten, err
}

// ErrNoConsentService is a daemon that does not answer consent requests:
// an older version, which the person restarts.
var ErrNoConsentService = errors.New("the daemon does not answer consent requests: it may be an older version; restart it")

// call sends one request; a refusal comes back as an *ops.Error.
func (c *Consent) call(ctx context.Context, subject string, body any) (api.ConsentReply, error) {
	ctx, cancel := context.WithTimeout(ctx, consentTimeout)
	defer cancel()
	var r api.ConsentReply
	err := ops.AskJSON(ctx, c.nc, subject, body, &r)
	if errors.Is(err, nats.ErrNoResponders) {
		return api.ConsentReply{}, ErrNoConsentService
	}
	var refused *ops.Error
	if errors.As(err, &refused) {
		return api.ConsentReply{}, refused
	}
	if err != nil {
		return api.ConsentReply{}, fmt.Errorf("ask the daemon (%s): %w", subject, err)
	}
	return r, nil
}

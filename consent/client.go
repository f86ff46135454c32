package consent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/reprise-dev/reprise/events"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/ops"
)

// DefaultClientTimeout bounds one request of a Client.
const DefaultClientTimeout = 10 * time.Second

// Client talks to the local approval service, as `reprise consent` does.
type Client struct {
	nc      *nats.Conn
	timeout time.Duration
}

// NewClient returns a Client on nc, the local CLI's connection.
func NewClient(nc *nats.Conn) *Client { return &Client{nc: nc, timeout: DefaultClientTimeout} }

// List returns the prompts waiting for an answer, oldest first.
func (c *Client) List(ctx context.Context) ([]Prompt, error) {
	r, err := c.call(ctx, events.LocalConsentList, nil)
	if r.Prompts == nil {
		r.Prompts = []Prompt{}
	}
	return r.Prompts, err
}

// Approve answers prompt id with yes; remember keeps the answer for every
// recording of its kind.
func (c *Client) Approve(ctx context.Context, id string, remember bool) error {
	_, err := c.call(ctx, events.LocalConsentApprove, AnswerRequest{ID: id, Remember: remember})
	return err
}

// Deny answers prompt id with no.
func (c *Client) Deny(ctx context.Context, id string) error {
	_, err := c.call(ctx, events.LocalConsentDeny, AnswerRequest{ID: id})
	return err
}

// Choices returns the remembered answers.
func (c *Client) Choices(ctx context.Context) ([]Choice, error) {
	r, err := c.call(ctx, events.LocalConsentChoices, nil)
	if r.Choices == nil {
		r.Choices = []Choice{}
	}
	return r.Choices, err
}

// Forget drops the remembered answer for kind and says whether there was
// one (1) or not (0).
func (c *Client) Forget(ctx context.Context, kind string) (int, error) {
	r, err := c.call(ctx, events.LocalConsentForget, ForgetRequest{Kind: kind})
	return r.Forgotten, err
}

// ForgetAll drops every remembered answer and says how many there were.
func (c *Client) ForgetAll(ctx context.Context) (int, error) {
	r, err := c.call(ctx, events.LocalConsentForget, ForgetRequest{All: true})
	return r.Forgotten, err
}

// call sends one request; a refusal comes back as an *ops.Error.
func (c *Client) call(ctx context.Context, subject string, body any) (Reply, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var r Reply
	err := ops.AskJSON(ctx, c.nc, subject, body, &r)
	if errors.Is(err, nats.ErrNoResponders) {
		return Reply{}, errors.New("the daemon does not answer consent requests: it may be an older version; restart it with `reprise daemon`")
	}
	var refused *ops.Error
	if errors.As(err, &refused) {
		return Reply{}, refused
	}
	if err != nil {
		return Reply{}, fmt.Errorf("ask the daemon (%s): %w", subject, err)
	}
	return r, nil
}

package events

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Publisher writes typed events to JetStream. Every publish carries a
// Nats-Msg-Id so a retry after a lost ack is stored once. It is safe for
// concurrent use.
type Publisher struct {
	js jetstream.JetStream
}

// NewPublisher returns a Publisher on js.
func NewPublisher(js jetstream.JetStream) *Publisher { return &Publisher{js: js} }

// PublishStep encodes s and publishes it to subject under the dedupe id
// <recID>:<seq>, returning once JetStream has acked it.
func (p *Publisher) PublishStep(ctx context.Context, subject, recID string, s *Step) (*jetstream.PubAck, error) {
	msg, err := stepMsg(subject, recID, s)
	if err != nil {
		return nil, err
	}
	ack, err := p.js.PublishMsg(ctx, msg)
	if err != nil {
		return nil, fmt.Errorf("publish step %d of %s: %w", s.Seq, recID, err)
	}
	return ack, nil
}

// PublishStepAsync is PublishStep without waiting: the returned future
// resolves to the ack. Callers bound their own in-flight window (see
// jetstream.WithPublishAsyncMaxPending).
func (p *Publisher) PublishStepAsync(subject, recID string, s *Step) (jetstream.PubAckFuture, error) {
	msg, err := stepMsg(subject, recID, s)
	if err != nil {
		return nil, err
	}
	f, err := p.js.PublishMsgAsync(msg)
	if err != nil {
		return nil, fmt.Errorf("publish step %d of %s: %w", s.Seq, recID, err)
	}
	return f, nil
}

// stepSizeHint covers the encoding of a typical step (the SPEC's fill step
// is under 500 bytes), so encoding it allocates once.
const stepSizeHint = 512

func stepMsg(subject, recID string, s *Step) (*nats.Msg, error) {
	data, err := AppendMsgpack(make([]byte, 0, stepSizeHint), s)
	if err != nil {
		return nil, fmt.Errorf("encode step %d of %s: %w", s.Seq, recID, err)
	}
	return &nats.Msg{
		Subject: subject,
		Data:    data,
		Header:  nats.Header{jetstream.MsgIDHeader: []string{StepMsgID(recID, s.Seq)}},
	}, nil
}

// StepHandler handles one decoded step. Returning nil acks the message; an
// error asks for redelivery.
type StepHandler func(ctx context.Context, s *Step, m jetstream.Msg) error

// ConsumeSteps delivers each step on c to h until ctx ends or the returned
// context is stopped. A message that does not decode as a valid step is
// terminated (never redelivered) and logged without its content.
func ConsumeSteps(ctx context.Context, c jetstream.Consumer, log *slog.Logger, h StepHandler) (jetstream.ConsumeContext, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cc, err := c.Consume(func(m jetstream.Msg) {
		s, err := DecodeStep(m.Data())
		if err != nil {
			log.Warn("dropping malformed step", "subject", m.Subject(), "err", err)
			_ = m.TermWithReason("malformed step")
			return
		}
		if err := h(ctx, s, m); err != nil {
			log.Warn("step handler failed; asking for redelivery", "subject", m.Subject(), "seq", s.Seq, "err", err)
			_ = m.Nak()
			return
		}
		if err := m.Ack(); err != nil {
			log.Warn("ack step", "subject", m.Subject(), "seq", s.Seq, "err", err)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("consume steps: %w", err)
	}
	context.AfterFunc(ctx, cc.Stop)
	return cc, nil
}

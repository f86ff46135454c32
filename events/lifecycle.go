package events

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// RecordingStarted is the payload of rec.<id>.started: what the recording is
// and what the person consented to.
type RecordingStarted struct {
	RecordingID         string   `json:"recording_id" msgpack:"recording_id"`
	Version             string   `json:"version" msgpack:"version"`
	CreatedAt           float64  `json:"created_at" msgpack:"created_at"`
	MachineID           string   `json:"machine_id" msgpack:"machine_id"`
	Mode                string   `json:"mode" msgpack:"mode"`
	InterpretationRoute string   `json:"interpretation_route" msgpack:"interpretation_route"`
	Channels            []string `json:"channels" msgpack:"channels"`
	// Probe is what START_RECORDING found for interpreting the recording;
	// InterpretationRoute is its Effective route.
	Probe *RouteProbe `json:"probe,omitempty" msgpack:"probe,omitempty"`
}

// RouteProbe is what this machine could do to interpret a recording when it
// started (SPEC section 10), and the route that came of it.
type RouteProbe struct {
	Requested  string `json:"requested" msgpack:"requested"`
	Effective  string `json:"effective" msgpack:"effective"`
	Structured bool   `json:"structured" msgpack:"structured"` // a channel resolves elements (DOM/AX)
	OCR        bool   `json:"ocr" msgpack:"ocr"`
	LocalVLM   bool   `json:"local_vlm" msgpack:"local_vlm"`
}

// RecordingStopped is the payload of rec.<id>.stopped.
type RecordingStopped struct {
	StoppedAt float64 `json:"stopped_at" msgpack:"stopped_at"`
	// Dropped counts steps a source emitted while the capture queue was full.
	Dropped uint64 `json:"dropped" msgpack:"dropped"`
}

// RecordingReviewed is the payload of rec.<id>.reviewed.
type RecordingReviewed struct {
	ReviewedAt       float64  `json:"reviewed_at" msgpack:"reviewed_at"`
	RemovedStepSeqs  []uint64 `json:"removed_step_seqs" msgpack:"removed_step_seqs"`
	RedactedStepSeqs []uint64 `json:"redacted_step_seqs" msgpack:"redacted_step_seqs"`
}

// RecordingConfirmed is the payload of rec.<id>.confirmed: the person's
// answers, parameter name to a column or "const" (skills/learn.ParseConfirm's
// syntax). Names and columns only, never a value.
type RecordingConfirmed struct {
	ConfirmedAt float64           `json:"confirmed_at" msgpack:"confirmed_at"`
	Answers     map[string]string `json:"answers" msgpack:"answers"`
}

// RecordingEvicted is the payload of rec.<id>.evicted.
type RecordingEvicted struct {
	EvictedAt float64 `json:"evicted_at" msgpack:"evicted_at"`
}

// Decode decodes one msgpack value into v after the same well-formedness
// checks as DecodeStep; v's own invariants are the caller's to check.
func Decode(b []byte, v any) error {
	return decodeMsgpack(b, v)
}

// Publish encodes v and publishes it to subject under msgID, returning once
// JetStream has acked it. It is for lifecycle events; steps use PublishStep.
func (p *Publisher) Publish(ctx context.Context, subject, msgID string, v any) (*jetstream.PubAck, error) {
	data, err := AppendMsgpack(nil, v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", subject, err)
	}
	return p.PublishBytes(ctx, subject, msgID, data)
}

// PublishAsync is Publish without waiting: the future resolves to the ack.
func (p *Publisher) PublishAsync(subject, msgID string, v any) (jetstream.PubAckFuture, error) {
	data, err := AppendMsgpack(nil, v)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", subject, err)
	}
	f, err := p.js.PublishMsgAsync(&nats.Msg{
		Subject: subject,
		Data:    data,
		Header:  nats.Header{jetstream.MsgIDHeader: []string{msgID}},
	})
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", subject, err)
	}
	return f, nil
}

// PublishBytes publishes data, already encoded (and sealed), to subject
// under msgID, returning once JetStream has acked it.
func (p *Publisher) PublishBytes(ctx context.Context, subject, msgID string, data []byte) (*jetstream.PubAck, error) {
	ack, err := p.js.PublishMsg(ctx, &nats.Msg{
		Subject: subject,
		Data:    data,
		Header:  nats.Header{jetstream.MsgIDHeader: []string{msgID}},
	})
	if err != nil {
		return nil, fmt.Errorf("publish %s: %w", subject, err)
	}
	return ack, nil
}

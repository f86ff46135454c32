package audit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

// readBatch is how many messages one pull asks for.
const readBatch = 1024

// Verify reads the whole AUDIT stream in order, as it stands when Verify
// starts, and checks the chain under key against cp (the zero Checkpoint
// when the caller remembers none). Tampering is in the Report, not the
// error: the error is for a stream that could not be read.
func Verify(ctx context.Context, js jetstream.JetStream, key []byte, cp Checkpoint, opts ...VerifyOption) (Report, error) {
	v, err := NewVerifier(key, cp, opts...)
	if err != nil {
		return Report{}, err
	}
	info, err := streamState(ctx, js)
	if err != nil {
		return Report{}, fmt.Errorf("verify audit log: %w", err)
	}
	if info.Lost != nil {
		v.Lost(info.Lost.Msgs)
	}
	last := uint64(0)
	if info.Msgs > 0 {
		last = info.LastSeq
	}
	if last > 0 {
		err = read(ctx, js, 1, last, func(m Message) error { v.Add(m); return nil })
		if err != nil {
			return Report{}, fmt.Errorf("verify audit log: %w", err)
		}
	}
	return v.Report(), nil
}

// TailFunc receives one message of Tail: its entry, or the error that kept
// it from decoding. Returning an error stops Tail with that error.
type TailFunc func(m Message, e *Entry, err error) error

// Tail calls f for the last n messages of the AUDIT stream (all of them
// when n <= 0), oldest first, then, when follow is set, for each new one
// until ctx ends. It needs no key and checks no MAC: it shows entries as
// stored; Verify says whether they can be trusted. The local CLI's
// read-only JetStream permissions suffice.
func Tail(ctx context.Context, js jetstream.JetStream, n int, follow bool, f TailFunc) error {
	last, err := lastSeq(ctx, js)
	if err != nil {
		return fmt.Errorf("tail audit log: %w", err)
	}
	start := uint64(1)
	if n > 0 && last > uint64(n) {
		start = last - uint64(n) + 1
	}
	end := last
	if follow {
		end = 0
	} else if last == 0 {
		return nil
	}
	err = read(ctx, js, start, end, func(m Message) error {
		e, err := DecodeEntry(m.Data)
		return f(m, e, err)
	})
	if follow && errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("tail audit log: %w", err)
	}
	return nil
}

// lastSeq is the stream sequence of the AUDIT stream's last message, 0 when
// it is empty.
func lastSeq(ctx context.Context, js jetstream.JetStream) (uint64, error) {
	st, err := streamState(ctx, js)
	if err != nil || st.Msgs == 0 {
		return 0, err
	}
	return st.LastSeq, nil
}

// streamState is the AUDIT stream's state as the store sees it now.
func streamState(ctx context.Context, js jetstream.JetStream) (jetstream.StreamState, error) {
	s, err := js.Stream(ctx, events.StreamAudit)
	if err != nil {
		return jetstream.StreamState{}, fmt.Errorf("stream %s: %w", events.StreamAudit, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return jetstream.StreamState{}, fmt.Errorf("stream %s info: %w", events.StreamAudit, err)
	}
	return info.State, nil
}

// read calls f for each message from stream seq start through end, in
// order, through an ordered consumer; end 0 means until ctx ends.
func read(ctx context.Context, js jetstream.JetStream, start, end uint64, f func(Message) error) error {
	cfg := jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverAllPolicy, InactiveThreshold: 30 * time.Second}
	if start > 1 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, start
	}
	c, err := js.OrderedConsumer(ctx, events.StreamAudit, cfg)
	if err != nil {
		return fmt.Errorf("read %s: %w", events.StreamAudit, err)
	}
	defer events.Forget(ctx, js, events.StreamAudit, c)
	it, err := c.Messages(jetstream.PullMaxMessages(readBatch))
	if err != nil {
		return fmt.Errorf("read %s: %w", events.StreamAudit, err)
	}
	defer it.Stop()
	for {
		msg, err := it.Next(jetstream.NextContext(ctx))
		if err != nil {
			return fmt.Errorf("read %s: %w", events.StreamAudit, err)
		}
		md, err := msg.Metadata()
		if err != nil {
			return fmt.Errorf("read %s: %w", events.StreamAudit, err)
		}
		seq := md.Sequence.Stream
		if err := f(Message{StreamSeq: seq, Subject: msg.Subject(), Data: msg.Data()}); err != nil {
			return err
		}
		if end > 0 && seq >= end {
			return nil
		}
	}
}

package events

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Forwarder moves messages from one stream to another: it publishes each to
// its destination without waiting, and acks the source message only once the
// destination has acked the publish. With a dedupe id on every publish, a
// crash between the two acks redelivers a message that is then stored once.
// In-flight messages are bounded by the source consumer's MaxAckPending.
type Forwarder struct {
	js      jetstream.JetStream
	log     *slog.Logger
	pending chan forward
	done    chan struct{}

	mu     sync.RWMutex // guards closed and sends on pending
	closed bool

	failMu  sync.Mutex
	failing error // the last publish's error, until one succeeds
}

// ErrForwarderClosed is returned by Forward after Close; the source message
// is left unacked, so it is redelivered.
var ErrForwarderClosed = errors.New("forwarder closed")

type forward struct {
	ack   jetstream.PubAckFuture
	src   jetstream.Msg
	after func()
}

// NewForwarder starts a forwarder publishing through js.
func NewForwarder(js jetstream.JetStream, log *slog.Logger) *Forwarder {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	f := &Forwarder{js: js, log: log, pending: make(chan forward, 4096), done: make(chan struct{})}
	go f.loop()
	return f
}

// Forward publishes data to subject under msgID and acks src once it is
// stored; after, if not nil, runs just before that ack. A publish that fails
// naks src for redelivery. A consumer's callback may still run after its
// Stop, so Forward after Close is an error, not a panic.
func (f *Forwarder) Forward(src jetstream.Msg, subject, msgID string, data []byte, after func()) error {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if f.closed {
		return ErrForwarderClosed
	}
	ack, err := f.js.PublishMsgAsync(&nats.Msg{Subject: subject, Data: data, Header: nats.Header{jetstream.MsgIDHeader: []string{msgID}}})
	if err != nil {
		return fmt.Errorf("forward to %s: %w", subject, err)
	}
	f.pending <- forward{ack: ack, src: src, after: after}
	return nil
}

func (f *Forwarder) loop() {
	defer close(f.done)
	for p := range f.pending {
		select {
		case <-p.ack.Ok():
			f.setFailing(nil)
			if p.after != nil {
				p.after()
			}
			if err := p.src.Ack(); err != nil {
				f.log.Debug("ack a forwarded message", "err", err)
			}
		case err := <-p.ack.Err():
			f.setFailing(err)
			f.log.Warn("forwarded message not stored; asking for redelivery", "subject", p.ack.Msg().Subject, "err", err)
			_ = p.src.NakWithDelay(time.Second)
		}
	}
}

func (f *Forwarder) setFailing(err error) {
	f.failMu.Lock()
	defer f.failMu.Unlock()
	f.failing = err
}

// Failing returns the error of the last publish when it failed and none has
// succeeded since: the destination refuses what is forwarded (a full disk).
func (f *Forwarder) Failing() error {
	f.failMu.Lock()
	defer f.failMu.Unlock()
	return f.failing
}

// Close waits for the messages in flight to be acked or naked. It is safe to
// call more than once.
func (f *Forwarder) Close() {
	f.mu.Lock()
	if !f.closed {
		f.closed = true
		close(f.pending)
	}
	f.mu.Unlock()
	<-f.done
}

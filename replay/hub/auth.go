package hub

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Headers that carry a message's MAC and the id of the key it is under.
const (
	HeaderKey = "Reprise-Hub-Key"
	HeaderMAC = "Reprise-Hub-Mac"
)

// What a MAC is for: a MAC made for one kind of message never checks as
// another's.
const (
	kindRow        = "row"         // a queued row (Item) on hub.rows.<run>
	kindEvent      = "event"       // a REPLAY event: plan, mark, result
	kindGrant      = "grant"       // a worker's request to a run's coordinator
	kindGrantReply = "grant reply" // the coordinator's answer
	kindClaim      = "claim"       // a claim's value in HUB_CLAIMS
)

var (
	// ErrNotAuthentic is a message whose MAC is missing or wrong under this
	// hub key: forged, damaged, or written by a version before MACs.
	ErrNotAuthentic = errors.New("no valid MAC under the hub key")
	// ErrForeignKey is a message MACed under another hub key than this
	// machine's: the person copied another key here, or (a hub user can
	// do that too) someone named another key on a message.
	ErrForeignKey = errors.New("made under another hub key")
)

// sum is the MAC of one message: its kind, subject and body, each length
// prefixed so that no two messages share an input.
func (k *Key) sum(kind, subject string, data []byte) []byte {
	m := hmac.New(sha256.New, k.mac)
	for _, part := range [][]byte{[]byte(kind), []byte(subject), data} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		m.Write(n[:])
		m.Write(part)
	}
	return m.Sum(nil)
}

// stamp puts m's MAC, as a message of kind, in its headers.
func (k *Key) stamp(m *nats.Msg, kind string) {
	if m.Header == nil {
		m.Header = nats.Header{}
	}
	m.Header.Set(HeaderKey, k.id)
	m.Header.Set(HeaderMAC, base64.RawStdEncoding.EncodeToString(k.sum(kind, m.Subject, m.Data)))
}

// check says whether a message of kind on subject carries a valid MAC in
// h: nil, ErrNotAuthentic, or ErrForeignKey (wrapped in a *KeyError).
func (k *Key) check(h nats.Header, kind, subject string, data []byte) error {
	id := h.Get(HeaderKey)
	if id == "" {
		return ErrNotAuthentic
	}
	if id != k.id {
		return &KeyError{Theirs: id, Ours: k.id}
	}
	got, err := base64.RawStdEncoding.DecodeString(h.Get(HeaderMAC))
	if err != nil || !hmac.Equal(got, k.sum(kind, subject, data)) {
		return ErrNotAuthentic
	}
	return nil
}

// KeyError is a message made under another hub key than this machine's.
// Its ids name the keys and reveal nothing of them.
type KeyError struct{ Theirs, Ours string }

func (e *KeyError) Error() string {
	// The id is the message's to name: quoted and cut short, so that a hub
	// user cannot write on a person's terminal with it.
	theirs := e.Theirs
	if len(theirs) > 32 {
		theirs = theirs[:32] + "..."
	}
	return fmt.Sprintf("made under hub key %q; this machine holds hub key %s", theirs, e.Ours)
}

func (e *KeyError) Unwrap() error { return ErrForeignKey }

// RunKeyError is a worker's refusal of a run's row made under another hub
// key: the person copies the key file of the machine that started Run.
type RunKeyError struct {
	Run string
	Key *KeyError
}

func (e *RunKeyError) Error() string {
	return fmt.Sprintf("a row of run %q cannot be opened here: it was %s; copy the hub key file of the machine that started the run (hub.key in its data dir, or the file it was given) here, then start the worker again",
		e.Run, e.Key)
}

func (e *RunKeyError) Unwrap() error { return e.Key }

// events is js as a run's events on the hub must be read and written: what
// it publishes carries a MAC under k; what it reads without a valid one
// reads as a message on no subject with no body, which every fold of a
// run (replay's readers parse the subject first) skips. A hub user can so
// delete a run's events, never forge one: no "committed" mark or result,
// no passed dry run. Everything else of js is js's own.
func (k *Key) events(js jetstream.JetStream) jetstream.JetStream {
	if a, ok := js.(*authJS); ok && a.k == k {
		return a
	}
	return &authJS{JetStream: js, k: k}
}

type authJS struct {
	jetstream.JetStream
	k *Key
}

func (a *authJS) Publish(ctx context.Context, subject string, data []byte, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	return a.PublishMsg(ctx, &nats.Msg{Subject: subject, Data: data}, opts...)
}

func (a *authJS) PublishMsg(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	a.k.stamp(m, kindEvent)
	return a.JetStream.PublishMsg(ctx, m, opts...)
}

func (a *authJS) PublishAsync(subject string, data []byte, opts ...jetstream.PublishOpt) (jetstream.PubAckFuture, error) {
	return a.PublishMsgAsync(&nats.Msg{Subject: subject, Data: data}, opts...)
}

func (a *authJS) PublishMsgAsync(m *nats.Msg, opts ...jetstream.PublishOpt) (jetstream.PubAckFuture, error) {
	a.k.stamp(m, kindEvent)
	return a.JetStream.PublishMsgAsync(m, opts...)
}

func (a *authJS) OrderedConsumer(ctx context.Context, stream string, cfg jetstream.OrderedConsumerConfig) (jetstream.Consumer, error) {
	c, err := a.JetStream.OrderedConsumer(ctx, stream, cfg)
	if err != nil {
		return nil, err
	}
	return &authConsumer{Consumer: c, k: a.k}, nil
}

// authConsumer hands out its messages checked (see authMsg).
type authConsumer struct {
	jetstream.Consumer
	k *Key
}

func (c *authConsumer) Fetch(n int, opts ...jetstream.FetchOpt) (jetstream.MessageBatch, error) {
	b, err := c.Consumer.Fetch(n, opts...)
	return c.batch(b, n), err
}

func (c *authConsumer) FetchBytes(maxBytes int, opts ...jetstream.FetchOpt) (jetstream.MessageBatch, error) {
	b, err := c.Consumer.FetchBytes(maxBytes, opts...)
	return c.batch(b, 256), err
}

func (c *authConsumer) FetchNoWait(n int) (jetstream.MessageBatch, error) {
	b, err := c.Consumer.FetchNoWait(n)
	return c.batch(b, n), err
}

func (c *authConsumer) Next(opts ...jetstream.FetchOpt) (jetstream.Msg, error) {
	m, err := c.Consumer.Next(opts...)
	if err != nil {
		return nil, err
	}
	return c.k.checked(m), nil
}

func (c *authConsumer) Consume(h jetstream.MessageHandler, opts ...jetstream.PullConsumeOpt) (jetstream.ConsumeContext, error) {
	return c.Consumer.Consume(func(m jetstream.Msg) { h(c.k.checked(m)) }, opts...)
}

func (c *authConsumer) Messages(opts ...jetstream.PullMessagesOpt) (jetstream.MessagesContext, error) {
	it, err := c.Consumer.Messages(opts...)
	if err != nil {
		return nil, err
	}
	return &authMessages{MessagesContext: it, k: c.k}, nil
}

type authMessages struct {
	jetstream.MessagesContext
	k *Key
}

func (it *authMessages) Next(opts ...jetstream.NextOpt) (jetstream.Msg, error) {
	m, err := it.MessagesContext.Next(opts...)
	if err != nil {
		return nil, err
	}
	return it.k.checked(m), nil
}

// batch is b with each message checked. Its channel holds the whole batch,
// so that a reader that stops early leaves no goroutine blocked.
func (c *authConsumer) batch(b jetstream.MessageBatch, n int) jetstream.MessageBatch {
	if b == nil {
		return nil
	}
	out := make(chan jetstream.Msg, max(n, 1))
	go func() {
		defer close(out)
		for m := range b.Messages() {
			out <- c.k.checked(m)
		}
	}()
	return &authBatch{MessageBatch: b, out: out}
}

type authBatch struct {
	jetstream.MessageBatch
	out chan jetstream.Msg
}

func (b *authBatch) Messages() <-chan jetstream.Msg { return b.out }

// checked is m, or m on no subject with no body when its MAC fails.
func (k *Key) checked(m jetstream.Msg) jetstream.Msg {
	if k.check(m.Headers(), kindEvent, m.Subject(), m.Data()) == nil {
		return m
	}
	return forged{m}
}

// forged is a message that failed its MAC: acks and metadata still work
// (a reader must get past it), nothing of what it says is read.
type forged struct{ jetstream.Msg }

func (forged) Subject() string { return "" }
func (forged) Data() []byte    { return nil }

// Package chunked answers a NATS request with a reply of any size: one
// message when it fits the connection's max payload (as m.Respond would),
// else a run of messages carrying Header "i/n", which Request joins. A
// recording of thousands of steps is megabytes; NATS takes 1 MB a message.
package chunked

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"
)

// Header numbers the parts of a reply sent in parts: "i/n", from 1.
const Header = "Reprise-Part"

// MaxReply bounds what Request joins: a reply past it is refused, not held.
const MaxReply = 256 << 20

// headroom keeps room in a message for its subject and header.
const headroom = 4 << 10

// Respond answers m with data, in parts when it does not fit one message.
// Its error says the reply did not reach the requester in full.
func Respond(nc *nats.Conn, m *nats.Msg, data []byte) error {
	return RespondTo(nc, m.Reply, data, m.Respond)
}

// RespondTo answers the request whose reply subject is reply with data: a
// reply that fits one message is sent by one (a services framework's own
// respond, which counts it), a bigger one in parts published on nc. Its
// error says the reply did not reach the requester in full.
func RespondTo(nc *nats.Conn, reply string, data []byte, one func([]byte) error) error {
	size := int(nc.MaxPayload()) - headroom
	if len(data) <= size {
		return one(data)
	}
	if reply == "" {
		return nats.ErrMsgNoReply
	}
	if len(data) > MaxReply {
		return fmt.Errorf("a reply of %d bytes is over the %d a requester joins", len(data), MaxReply)
	}
	n := (len(data) + size - 1) / size
	for i := range n {
		part := data[i*size : min((i+1)*size, len(data))]
		msg := &nats.Msg{Subject: reply, Data: part, Header: nats.Header{Header: []string{fmt.Sprintf("%d/%d", i+1, n)}}}
		if err := nc.PublishMsg(msg); err != nil {
			return fmt.Errorf("reply part %d of %d: %w", i+1, n, err)
		}
	}
	// A flush surfaces a connection that failed under the parts.
	return nc.Flush()
}

// Request sends data to subject and returns the reply, its data joined when
// it came in parts, its header the first part's. It ends with ctx; a
// requester that gets the first part of a reply waits for the rest under
// the same ctx.
func Request(ctx context.Context, nc *nats.Conn, subject string, data []byte) (*nats.Msg, error) {
	inbox := nc.NewInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	if err := sub.SetPendingLimits(-1, MaxReply); err != nil {
		return nil, err
	}
	if err := nc.PublishRequest(subject, inbox, data); err != nil {
		return nil, err
	}
	first, err := sub.NextMsgWithContext(ctx)
	if err != nil {
		return nil, err
	}
	if first.Header.Get("Status") == "503" && len(first.Data) == 0 {
		return nil, nats.ErrNoResponders
	}
	h := first.Header.Get(Header)
	if h == "" {
		return first, nil
	}
	i, n, err := parsePart(h)
	if err != nil || i != 1 {
		return nil, fmt.Errorf("reply in parts starts with part %q: %v", h, err)
	}
	out := append([]byte(nil), first.Data...)
	for want := 2; want <= n; want++ {
		m, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return nil, fmt.Errorf("reply part %d of %d: %w", want, n, err)
		}
		if got, total, err := parsePart(m.Header.Get(Header)); err != nil || got != want || total != n {
			return nil, fmt.Errorf("reply part %d of %d came as %q", want, n, m.Header.Get(Header))
		}
		if len(out)+len(m.Data) > MaxReply {
			return nil, fmt.Errorf("reply over %d bytes", MaxReply)
		}
		out = append(out, m.Data...)
	}
	first.Data = out
	return first, nil
}

func parsePart(h string) (i, n int, err error) {
	a, b, ok := strings.Cut(h, "/")
	if !ok {
		return 0, 0, errors.New("not i/n")
	}
	if i, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	if n, err = strconv.Atoi(b); err != nil {
		return 0, 0, err
	}
	if i < 1 || n < 1 || i > n || n > MaxReply/1024 {
		return 0, 0, errors.New("out of range")
	}
	return i, n, nil
}

package replay

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
)

// refusalGrace is how long a plain refusal, or the server's "no
// responders", waits for the run's sealed reply before it is believed:
// another program may reply first, and faster, but cannot seal.
const refusalGrace = time.Second

// SendAnswer sends a sealed answer (AskKey.SealAnswer) to run's question
// and returns the run's sealed reply. The reply comes on a subject under
// the run's own (a CLI may not answer into another connection's inbox),
// which any CLI connection can read and publish on: a reply that does not
// open under the key is not believed, and an unsealed one is
// ErrNotAccepted (or nats.ErrNoResponders) only when no sealed one follows
// within refusalGrace.
func SendAnswer(ctx context.Context, nc *nats.Conn, run string, key *AskKey, sealed []byte) (AnswerReply, error) {
	inbox := events.AskSubject(run) + ".reply." + nats.NewInbox()[len(nats.InboxPrefix):]
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		return AnswerReply{}, err
	}
	defer sub.Unsubscribe()
	if err := nc.PublishRequest(key.Subject(), inbox, sealed); err != nil {
		return AnswerReply{}, err
	}
	var plain error
	wait := ctx
	for {
		msg, err := sub.NextMsgWithContext(wait)
		switch {
		case err != nil && plain != nil:
			return AnswerReply{}, plain
		case err != nil:
			return AnswerReply{}, err
		case IsSealed(msg.Data):
			if r, err := key.OpenReply(sealed, msg.Data); err == nil {
				return r, nil
			}
			continue
		}
		if plain == nil {
			plain = ErrNotAccepted
			if msg.Header.Get("Status") == "503" {
				plain = nats.ErrNoResponders
			}
			var cancel context.CancelFunc
			wait, cancel = context.WithTimeout(ctx, refusalGrace)
			defer cancel()
		}
	}
}

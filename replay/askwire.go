package replay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
)

// refusalGrace is how long a plain refusal, or the server's "no
// responders", waits for the run's sealed reply before it is believed:
// another program may reply first, and faster, but cannot seal.
const refusalGrace = time.Second

// SendAnswer seals a under the question's key (AskKey.SealAnswer), sends
// it to the run's question and returns the run's sealed reply. The reply
// comes on a subject under the run's own (a CLI may not answer into
// another connection's inbox), which any CLI connection can read and
// publish on: a reply that does not open under the key is not believed,
// and an unsealed one is ErrNotAccepted (or nats.ErrNoResponders) only
// when no sealed one follows within refusalGrace.
func SendAnswer(ctx context.Context, nc *nats.Conn, key *AskKey, a Answer) (AnswerReply, error) {
	sealed, err := key.SealAnswer(a)
	if err != nil {
		return AnswerReply{}, err
	}
	inbox := events.AskSubject(key.runID) + ".reply." + nats.NewInbox()[len(nats.InboxPrefix):]
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

// AnswerWait is how WaitAnswer waits for the answer to a question.
type AnswerWait struct {
	// Key is the question's key, from the token shown to the person only.
	Key *AskKey
	// NotAccepted and Unsealed are the plain replies to an answer that did
	// not open under Key (a wrong token, another program) and to one not
	// sealed at all (a reprise that predates sealing). They say no more
	// than that, whoever sent it.
	NotAccepted, Unsealed string
	// Ready, if set, is told once the run listens: the question and its
	// token may be shown now.
	Ready func()
	// Refused, if set, is told of each answer refused: onQuestion for one
	// sent to a question subject of the run, else one in the clear. It may
	// be called from another goroutine.
	Refused func(onQuestion bool)
}

// WaitAnswer waits on nc for the answer to q, sealed under w.Key, until
// ctx ends. Each answer is replied to: sealed when it opened (taken, or
// refused for another row or an empty answer, and waited past), in the
// clear when it did not. Every question subject of the run is listened
// to, so that an answer sealed with a wrong token is told it was not
// taken.
func WaitAnswer(ctx context.Context, nc *nats.Conn, q Question, w AnswerWait) (string, error) {
	refused := func(onQuestion bool, m *nats.Msg, why string) {
		if w.Refused != nil {
			w.Refused(onQuestion)
		}
		b, _ := json.Marshal(AnswerReply{Error: why})
		_ = m.Respond(b)
	}
	old, err := nc.Subscribe(events.AskSubject(q.RunID), func(m *nats.Msg) { refused(false, m, w.Unsealed) })
	if err != nil {
		return "", fmt.Errorf("wait for an answer: %w", err)
	}
	defer old.Unsubscribe()
	sub, err := nc.SubscribeSync(events.AskQuestionSubject(q.RunID, "*"))
	if err != nil {
		return "", fmt.Errorf("wait for an answer: %w", err)
	}
	defer sub.Unsubscribe()
	if err := nc.FlushWithContext(ctx); err != nil {
		return "", fmt.Errorf("wait for an answer: %w", err)
	}
	if w.Ready != nil {
		w.Ready()
	}
	for {
		msg, err := sub.NextMsgWithContext(ctx)
		if err != nil {
			return "", err
		}
		ans, err := Answer{}, ErrNotAccepted
		if msg.Subject == w.Key.Subject() {
			ans, err = w.Key.OpenAnswer(msg.Data)
		}
		if err != nil {
			refused(true, msg, w.NotAccepted)
			continue
		}
		reply := AnswerReply{Row: q.Row, Step: q.Step}
		switch {
		case ans.Row != 0 && ans.Row != q.Row:
			reply = AnswerReply{Error: fmt.Sprintf("row %d is not asking; row %d is", ans.Row, q.Row)}
		case ans.Answer == "":
			reply = AnswerReply{Error: "the answer is empty"}
		}
		_ = msg.Respond(w.Key.SealReply(msg.Data, reply))
		if reply.Error == "" {
			return ans.Answer, nil
		}
	}
}

// answerWait bounds how long AnswerRun waits for the run's reply.
const answerWait = 10 * time.Second

// AnswerRun sends a person's answer to the question of run key.RunID
// waits on, as SendAnswer does, and says in words why it was not taken.
func AnswerRun(ctx context.Context, nc *nats.Conn, key *AskKey, a Answer) (AnswerReply, error) {
	ctx, cancel := context.WithTimeout(ctx, answerWait)
	defer cancel()
	run := key.runID
	reply, err := SendAnswer(ctx, nc, key, a)
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return reply, fmt.Errorf("no question is waiting in run %s: it may have been answered, timed out, or the run ended", run)
	case errors.Is(err, ErrNotAccepted):
		return reply, fmt.Errorf("run %s did not take the answer: type the token it printed for the question waiting now (each question has its own): %w", run, err)
	case errors.Is(err, context.DeadlineExceeded):
		return reply, fmt.Errorf("run %s did not reply in %s: is its question still waiting?", run, answerWait)
	case err != nil:
		return reply, fmt.Errorf("answer run %s: %w", run, err)
	case reply.Error != "":
		return reply, fmt.Errorf("run %s: %s", run, reply.Error)
	}
	return reply, nil
}

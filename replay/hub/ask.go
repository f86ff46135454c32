package hub

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"golang.org/x/crypto/nacl/box"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
)

// A worker's ask step reaches the person through the run's coordinator:
// the worker sends the question, sealed under the hub key with a public
// key of its own for this question alone, and the coordinator puts it to
// the person as a run on this machine would (replay.Asker: a token on its
// terminal, `reprise runs answer` there). The answer goes back sealed to
// that public key, so that only the worker that asked opens it: not the
// hub, not another worker. Core NATS, nothing stored.

// askResend is how often a worker sends its question again until the
// coordinator answers: a hub node that dies takes messages in flight
// with it. The coordinator asks the person once a question.
var askResend = 5 * time.Second

const (
	kindQuestion = "question" // a worker's question for the person
	kindAnswer   = "answer"   // the coordinator's sealed answer to it
)

// question is a worker's ask, on hub.ask.<run>. Grant is the row's grant
// (none in a dry run); Pub is the worker's key for this question's
// answer; Sealed is the questionBody, sealed under the hub key.
type question struct {
	Run     string `msgpack:"run"`
	Row     int    `msgpack:"row"`
	Session int    `msgpack:"session"`
	Grant   []byte `msgpack:"grant,omitempty"`
	Pub     []byte `msgpack:"pub"`
	Sealed  []byte `msgpack:"sealed"`
}

// questionBody is what the person is asked: the prompt holds row values.
type questionBody struct {
	Step   int    `msgpack:"step"`
	Prompt string `msgpack:"prompt"`
	Secret bool   `msgpack:"secret,omitempty"`
	WaitMS int64  `msgpack:"wait_ms"`
}

// reply is the coordinator's, sealed to the question's Pub: the answer, or
// why there is none.
type reply struct {
	Answer string `msgpack:"answer,omitempty"`
	Error  string `msgpack:"error,omitempty"`
}

// answered is the coordinator's reply to a question it took, sealed: sent
// again to a worker that asks again.
type answered struct {
	Pub    []byte `msgpack:"pub"`
	Sealed []byte `msgpack:"sealed"`
}

func questionPlace(run string, row int, pub []byte) string {
	return fmt.Sprintf("question %s/%d/%x", run, row, pub)
}

// ErrNoAsker says a question reached a coordinator that has nobody to
// put it to.
var ErrNoAsker = errors.New("nobody can answer this run's questions on the machine that started it")

// asks is a run's coordinator taking its workers' questions.
type asks struct {
	r      *Run
	ready  chan struct{} // closed once Run.Ask is set (Wait began)
	ctx    context.Context
	cancel context.CancelFunc

	mu   sync.Mutex
	sub  *nats.Subscription
	seen map[string]*answered // by Pub: nil while the person is asked
}

// serveAsks starts taking the run's questions; Wait lets them through to
// r.Ask, Close stops.
func (r *Run) serveAsks() error {
	a := &asks{r: r, ready: make(chan struct{}), seen: map[string]*answered{}}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	sub, err := r.JS.Conn().Subscribe(events.HubAskSubject(r.Plan.RunID), a.handle)
	if err != nil {
		a.cancel()
		return fmt.Errorf("take run %s's questions: %w", r.Plan.RunID, err)
	}
	a.sub = sub
	r.asks = a
	return r.JS.Conn().Flush()
}

func (a *asks) stop() {
	a.cancel()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sub != nil {
		_ = a.sub.Unsubscribe()
		a.sub = nil
	}
}

// handle takes one question: authentic, for this run, from the worker
// that holds the row's grant. One asked before is answered as before.
func (a *asks) handle(m *nats.Msg) {
	r := a.r
	if m.Reply == "" || r.Key.check(m.Header, kindQuestion, m.Subject, m.Data) != nil {
		return
	}
	var q question
	if events.Decode(m.Data, &q) != nil || q.Run != r.Plan.RunID || len(q.Pub) != 32 {
		return
	}
	if r.granter != nil && !r.granter.holds(q.Row, q.Session, q.Grant) {
		return // not the row's filer, or no longer
	}
	plain, err := r.Key.open(q.Sealed, questionPlace(q.Run, q.Row, q.Pub))
	if err != nil {
		return
	}
	var body questionBody
	if events.Decode(plain, &body) != nil || body.WaitMS <= 0 {
		return
	}
	a.mu.Lock()
	before, asked := a.seen[string(q.Pub)]
	if !asked {
		a.seen[string(q.Pub)] = nil
	}
	a.mu.Unlock()
	switch {
	case before != nil:
		a.send(m.Reply, before)
		return
	case asked:
		return // the person is being asked
	}
	go a.put(m.Reply, q, body)
}

// put asks the person and sends the sealed reply.
func (a *asks) put(inbox string, q question, body questionBody) {
	wait := time.Duration(body.WaitMS) * time.Millisecond
	ctx, cancel := context.WithTimeout(a.ctx, wait)
	defer cancel()
	var rep reply
	select {
	case <-a.ready:
		if a.r.Ask == nil {
			rep.Error = ErrNoAsker.Error()
			break
		}
		ans, err := a.r.Ask(ctx, replay.Question{RunID: q.Run, Row: q.Row, Step: body.Step, Prompt: body.Prompt, Secret: body.Secret, Wait: wait})
		switch {
		case a.ctx.Err() != nil:
			return // the coordinator stops: the worker's wait ends the row
		case errors.Is(err, context.DeadlineExceeded):
			rep.Error = fmt.Sprintf("no answer within %s", wait.Round(time.Second))
		case err != nil:
			rep.Error = err.Error()
		default:
			rep.Answer = ans
		}
	case <-ctx.Done():
		return
	}
	plain, err := events.AppendMsgpack(nil, &rep)
	if err != nil {
		return
	}
	var pub [32]byte
	copy(pub[:], q.Pub)
	sealed, err := box.SealAnonymous(nil, plain, &pub, rand.Reader)
	if err != nil {
		return
	}
	ans := &answered{Pub: q.Pub, Sealed: sealed}
	a.mu.Lock()
	a.seen[string(q.Pub)] = ans
	a.mu.Unlock()
	a.send(inbox, ans)
}

func (a *asks) send(inbox string, ans *answered) {
	data, err := events.AppendMsgpack(nil, ans)
	if err != nil {
		return
	}
	m := &nats.Msg{Subject: inbox, Data: data}
	a.r.Key.stamp(m, kindAnswer)
	_ = a.r.JS.Conn().PublishMsg(m)
}

// asker is what row it's ask steps call on this worker: the question goes
// to the run's coordinator, the answer comes back sealed to a key made
// for it.
func (w *Worker) asker(it Item, grant []byte) func(context.Context, replay.Question) (string, error) {
	return func(ctx context.Context, q replay.Question) (string, error) {
		pub, priv, err := box.GenerateKey(rand.Reader)
		if err != nil {
			return "", err
		}
		plain, err := events.AppendMsgpack(nil, &questionBody{Step: q.Step, Prompt: q.Prompt, Secret: q.Secret, WaitMS: q.Wait.Milliseconds()})
		if err != nil {
			return "", err
		}
		data, err := events.AppendMsgpack(nil, &question{Run: it.Run, Row: it.Row, Session: it.Session, Grant: grant,
			Pub: pub[:], Sealed: w.Key.seal(plain, questionPlace(it.Run, it.Row, pub[:]))})
		if err != nil {
			return "", err
		}
		nc := w.JS.Conn()
		inbox := nc.NewInbox()
		sub, err := nc.SubscribeSync(inbox)
		if err != nil {
			return "", err
		}
		defer func() { _ = sub.Unsubscribe() }()
		msg := &nats.Msg{Subject: events.HubAskSubject(it.Run), Reply: inbox, Data: data}
		w.Key.stamp(msg, kindQuestion)
		for {
			if err := nc.PublishMsg(msg); err != nil && !errors.Is(err, nats.ErrConnectionReconnecting) {
				return "", err
			}
			rep, err := w.awaitReply(ctx, sub, pub, priv)
			switch {
			case errors.Is(err, errResend):
				continue
			case err != nil:
				return "", err
			case rep.Error != "":
				return "", errors.New(rep.Error)
			}
			return rep.Answer, nil
		}
	}
}

var errResend = errors.New("no reply yet")

// awaitReply waits askResend for the coordinator's reply on sub: the
// first that carries its MAC and opens under priv.
func (w *Worker) awaitReply(ctx context.Context, sub *nats.Subscription, pub, priv *[32]byte) (reply, error) {
	var rep reply
	wait, cancel := context.WithTimeout(ctx, askResend)
	defer cancel()
	for {
		m, err := sub.NextMsgWithContext(wait)
		switch {
		case ctx.Err() != nil:
			return rep, ctx.Err()
		case err != nil:
			return rep, errResend
		case len(m.Data) == 0 && m.Header.Get("Status") == "503":
			// No responders: the coordinator is gone, or between nodes.
			select {
			case <-ctx.Done():
				return rep, ctx.Err()
			case <-wait.Done():
				return rep, errResend
			}
		}
		if w.Key.check(m.Header, kindAnswer, m.Subject, m.Data) != nil {
			continue
		}
		var ans answered
		if events.Decode(m.Data, &ans) != nil || string(ans.Pub) != string(pub[:]) {
			continue
		}
		plain, ok := box.OpenAnonymous(nil, ans.Sealed, pub, priv)
		if !ok || events.Decode(plain, &rep) != nil {
			continue
		}
		return rep, nil
	}
}

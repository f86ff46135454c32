package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/replay"
)

// A worker holding a grant shows a sign of life every beat; a grant whose
// holder showed none for aliveFor is over. Variables for the tests.
var (
	beat     = Lease / 3
	aliveFor = Lease
)

// grantPrefix is where workers ask a run's coordinator for its rows:
// hub.grant.<run>, core NATS (nothing is stored on the hub).
const grantPrefix = events.HubGrantPrefix

// A worker's requests to the coordinator.
const (
	opTake    = "take"    // may I file this row? (answered)
	opAlive   = "alive"   // I am still filing it, every beat
	opRelease = "release" // I gave it back before filing anything
)

// The coordinator's answers to a take.
const (
	ansFile   = "file"   // file the row as its marks say
	ansSettle = "settle" // it may be filed already: verify it, or report it unknown
	ansBusy   = "busy"   // another worker files it and shows signs of life
	ansDone   = "done"   // the run has the row's result: drop the message
	ansStale  = "stale"  // not a row this session queued: drop the message
)

// ask is a worker's request. Grant names the grant it asks for or holds:
// random, made by the worker, so that a request copied by someone without
// the key acts on no other grant.
type ask struct {
	Op      string `msgpack:"op"`
	Run     string `msgpack:"run"`
	Row     int    `msgpack:"row"`
	Session int    `msgpack:"session"`
	Grant   []byte `msgpack:"grant"`
}

// answer is the coordinator's, to the take that named Grant.
type answer struct {
	Grant  []byte `msgpack:"grant"`
	Answer string `msgpack:"answer"`
	Reason string `msgpack:"reason,omitempty"`
}

// granter is a run's coordinator answering its workers: it grants each
// row of the session to one worker at a time and writes each grant to its
// ledger before the worker hears of it, so that a row once granted and
// not settled is only ever settled, never filled blindly again, whatever
// the hub's marks and claims say (a hub user may have deleted them).
type granter struct {
	k       *Key
	nc      *nats.Conn
	ledger  *ledger
	run     string
	session int

	mu   sync.Mutex
	rows map[int]*rowGrant
	sub  *nats.Subscription
}

// rowGrant is what the coordinator knows of one queued row.
type rowGrant struct {
	key string
	// maybe says why the row may be filed already; empty when it cannot
	// be (never granted, in this run or to a run this ledger knows).
	maybe string
	// grant is the current grant, alive its last sign of life, and before
	// what maybe was before it (a release restores it).
	grant  []byte
	alive  time.Time
	before string
	done   bool
}

// serve starts answering on the run's subject.
func (g *granter) serve() error {
	sub, err := g.nc.Subscribe(grantPrefix+g.run, g.handle)
	if err != nil {
		return fmt.Errorf("answer run %s's workers: %w", g.run, err)
	}
	g.mu.Lock()
	g.sub = sub
	g.mu.Unlock()
	return g.nc.Flush()
}

// stop stops answering; a second stop does nothing.
func (g *granter) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.sub != nil {
		_ = g.sub.Unsubscribe()
		g.sub = nil
	}
}

// handle answers one request; one without a valid MAC, or for another run,
// gets nothing.
func (g *granter) handle(m *nats.Msg) {
	if g.k.check(m.Header, kindGrant, m.Subject, m.Data) != nil {
		return
	}
	var a ask
	if events.Decode(m.Data, &a) != nil || a.Run != g.run || len(a.Grant) == 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.rows[a.Row]
	if a.Op != opTake {
		// Signs of life and releases of an earlier session's grant count
		// too: the coordinator took that grant over from its ledger.
		if r == nil || !sameGrant(r.grant, a.Grant) {
			return
		}
		switch a.Op {
		case opAlive:
			r.alive = time.Now()
		case opRelease:
			if g.ledger.add(entry{Run: g.run, Row: a.Row, Session: g.session, Key: r.key, State: stReleased, Grant: hex.EncodeToString(a.Grant)}) == nil {
				r.grant, r.maybe = nil, r.before
			}
		}
		return
	}
	ans := answer{Grant: a.Grant}
	switch {
	case a.Session != g.session || r == nil:
		ans.Answer = ansStale
	case r.done:
		ans.Answer = ansDone
	case r.grant != nil && time.Since(r.alive) < aliveFor:
		ans.Answer = ansBusy
	default:
		if err := g.ledger.add(entry{Run: g.run, Row: a.Row, Session: g.session, Key: r.key, State: stGranted, Grant: hex.EncodeToString(a.Grant)}); err != nil {
			return // no grant the ledger does not hold: the worker asks again
		}
		ans.Answer, ans.Reason = ansFile, ""
		if r.maybe != "" {
			ans.Answer, ans.Reason = ansSettle, r.maybe
		}
		r.before, r.grant, r.alive = r.maybe, a.Grant, time.Now()
		r.maybe = "a worker was granted it and gave no result"
	}
	data, err := events.AppendMsgpack(nil, &ans)
	if err != nil || m.Reply == "" {
		return
	}
	reply := &nats.Msg{Subject: m.Reply, Data: data}
	g.k.stamp(reply, kindGrantReply)
	_ = g.nc.PublishMsg(reply)
}

// settled says row n has its result: later takes are told so.
func (g *granter) settled(n int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if r := g.rows[n]; r != nil {
		r.done = true
	}
}

// lost is the report of row n, whose message left the queue without a
// result: ok is false while a worker granted it still shows signs of life
// (its result is to come).
func (g *granter) lost(n int) (rr replay.RowResult, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.rows[n]
	if r != nil && r.grant != nil && time.Since(r.alive) < aliveFor {
		return rr, false
	}
	why := "its message left the hub's queue before a worker took it (a hub user may have removed it)"
	if r == nil || r.maybe == "" {
		return replay.RowResult{N: n, Outcome: replay.OutcomeFailed, Step: -1,
			Reason: "not run: " + why + "; nothing was filed", Hint: replay.HintResume}, true
	}
	return replay.RowResult{N: n, Outcome: replay.OutcomeUnknown, Step: -1,
		Reason: "may have been filed: check it (" + r.maybe + ", and its message left the hub's queue)"}, true
}

// holds says whether grant is row n's current grant in this session: the
// worker that sent it is the row's filer.
func (g *granter) holds(n, session int, grant []byte) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.rows[n]
	return session == g.session && r != nil && !r.done && sameGrant(r.grant, grant)
}

func sameGrant(a, b []byte) bool { return len(a) > 0 && string(a) == string(b) }

// errNoCoordinator is a take nobody with the key answered in time.
var errNoCoordinator = errors.New("the run's coordinator did not answer")

// take asks the run's coordinator for row it.Row under a new grant, and
// returns the grant with the answer.
func (w *Worker) take(ctx context.Context, it Item) (grant []byte, ans answer, err error) {
	grant = make([]byte, 16)
	if _, err := rand.Read(grant); err != nil {
		return nil, ans, err
	}
	nc := w.JS.Conn()
	inbox := nc.NewInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		return nil, ans, err
	}
	defer func() { _ = sub.Unsubscribe() }()
	if err := w.tell(opTake, it, grant, inbox); err != nil {
		return nil, ans, err
	}
	wait, cancel := context.WithTimeout(ctx, Lease/3)
	defer cancel()
	for {
		m, err := sub.NextMsgWithContext(wait)
		if err != nil && ctx.Err() != nil {
			_ = w.tell(opRelease, it, grant, "")
			return nil, ans, ctx.Err()
		}
		if err != nil {
			// The coordinator may have granted it and the answer gone
			// astray: give it back.
			_ = w.tell(opRelease, it, grant, "")
			return nil, ans, errNoCoordinator
		}
		// Anyone may answer on an inbox they saw: only the coordinator's
		// MAC, on this inbox, for this grant, counts.
		if w.Key.check(m.Header, kindGrantReply, m.Subject, m.Data) != nil {
			continue
		}
		var a answer
		if events.Decode(m.Data, &a) == nil && sameGrant(a.Grant, grant) {
			return grant, a, nil
		}
	}
}

// tell sends the run's coordinator a request about grant: a take (with
// the inbox for its answer), a sign of life or a release.
func (w *Worker) tell(op string, it Item, grant []byte, inbox string) error {
	data, err := events.AppendMsgpack(nil, &ask{Op: op, Run: it.Run, Row: it.Row, Session: it.Session, Grant: grant})
	if err != nil {
		return err
	}
	m := &nats.Msg{Subject: grantPrefix + it.Run, Reply: inbox, Data: data}
	w.Key.stamp(m, kindGrant)
	return w.JS.Conn().PublishMsg(m)
}

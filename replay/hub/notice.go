package hub

import (
	"fmt"
	"sync"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/termtext"
)

// A worker that cannot file a run's rows (it lacks the skill's profile, or
// a desktop) says so to the run's coordinator, once a run, so the person
// who started it learns why rows wait, instead of a run that seems stuck.
// Core NATS, MACed; nothing stored.

const kindNotice = "notice"

// notice is a worker's word to a run's coordinator.
type notice struct {
	Run    string `msgpack:"run"`
	Worker string `msgpack:"worker"`
	Why    string `msgpack:"why"`
}

// notices is a run's coordinator hearing its workers' notices.
type notices struct {
	r   *Run
	sub *nats.Subscription

	mu   sync.Mutex
	seen map[string]bool // worker + why, told once
}

// serveNotices starts hearing the run's notices, told to r.Notice.
func (r *Run) serveNotices() error {
	n := &notices{r: r, seen: map[string]bool{}}
	sub, err := r.JS.Conn().Subscribe(events.HubNoticeSubject(r.Plan.RunID), n.handle)
	if err != nil {
		return fmt.Errorf("hear run %s's workers: %w", r.Plan.RunID, err)
	}
	n.sub = sub
	r.notices = n
	return nil
}

func (n *notices) handle(m *nats.Msg) {
	if n.r.Key.check(m.Header, kindNotice, m.Subject, m.Data) != nil {
		return
	}
	var no notice
	if events.Decode(m.Data, &no) != nil || no.Run != n.r.Plan.RunID || n.r.Notice == nil {
		return
	}
	// A worker's words go to a terminal: one line, no control bytes,
	// short.
	worker, why := termtext.Line(cut(no.Worker)), termtext.Line(no.Why)
	if len(why) > 300 {
		why = why[:300] + "..."
	}
	n.mu.Lock()
	seen := n.seen[worker+"\x00"+why]
	n.seen[worker+"\x00"+why] = true
	n.mu.Unlock()
	if !seen {
		n.r.Notice(worker, why)
	}
}

func (n *notices) stop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.sub != nil {
		_ = n.sub.Unsubscribe()
		n.sub = nil
	}
}

// tellCannot tells run it's coordinator that this worker cannot file its
// rows, and why.
func (w *Worker) tellCannot(it Item, why string) {
	data, err := events.AppendMsgpack(nil, &notice{Run: it.Run, Worker: w.Name, Why: why})
	if err != nil {
		return
	}
	m := &nats.Msg{Subject: events.HubNoticeSubject(it.Run), Data: data}
	w.Key.stamp(m, kindNotice)
	_ = w.JS.Conn().PublishMsg(m)
}

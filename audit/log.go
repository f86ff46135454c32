package audit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
)

// ErrNoHead is returned by Open when the AUDIT stream has entries but none
// of its last ones verifies under the key: the key was replaced, or the
// stream's tail is not the daemon's.
var ErrNoHead = errors.New("no entry at the end of the AUDIT stream verifies under the audit key")

// ErrConflict is returned by Append when someone else wrote to the AUDIT
// stream since this Log last read it. The Log re-reads the head before its
// next Append, so calling Append again is safe.
var ErrConflict = errors.New("the AUDIT stream changed under the audit log")

// maxHeadSearch bounds how far back Open looks for the last authentic entry.
const maxHeadSearch = 1024

// Log appends entries to the audit chain in the AUDIT stream. It is safe for
// concurrent use: appends are serialized, each waiting for JetStream's ack.
// Only one Log may write a stream at a time; a second one makes the other's
// next Append fail with ErrConflict rather than fork the chain.
type Log struct {
	js  jetstream.JetStream
	now func() time.Time

	mu      sync.Mutex
	chain   *chain
	lastSeq uint64 // stream seq of the stream's last message, expected by the next publish
	stale   bool   // the head must be re-read before the next append
}

// Open returns a Log that continues the chain in the AUDIT stream (which
// events.EnsureStores creates). The head is the last entry that verifies
// under key: entries after it that do not (a forgery) are left in place for
// Verify to report, and the chain continues past them.
func Open(ctx context.Context, js jetstream.JetStream, key []byte) (*Log, error) {
	c, err := newChain(key, Checkpoint{})
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	l := &Log{js: js, now: time.Now, chain: c}
	if err := l.recover(ctx); err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	return l, nil
}

// Head returns the chain's last entry: what the daemon keeps as the
// Checkpoint that Verify needs to see a truncated tail.
func (l *Log) Head() Checkpoint {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.chain.head
}

// Last returns a copy of the chain's last entry, nil when the chain is
// empty. After a failed Append it reads the head back first: an entry
// whose ack was lost may be in the chain after all, and a caller that kept
// it to write again can see so.
func (l *Log) Last(ctx context.Context) (*Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stale {
		if err := l.recover(ctx); err != nil {
			return nil, fmt.Errorf("audit log: %w", err)
		}
	}
	if l.chain.last == nil {
		return nil, nil
	}
	e := *l.chain.last
	e.Fields = maps.Clone(e.Fields)
	return &e, nil
}

// Append adds an entry of kind with fields to the chain and returns once
// JetStream has stored it. A kind it does not know, or a field the kind's
// allow-list lacks, is refused before anything is written, with an error
// wrapping ErrUnknownKind or ErrFieldNotAllowed that names it. Append does
// not retry; after a failed publish the next Append re-reads the head, so
// an entry whose ack was lost is neither lost from the chain nor forked.
func (l *Log) Append(ctx context.Context, kind string, fields map[string]string) error {
	return l.AppendAt(ctx, l.now(), kind, fields)
}

// AppendAt is Append for an entry that happened at t: one kept while the
// stream could not take it (see Pending) carries when it happened.
func (l *Log) AppendAt(ctx context.Context, t time.Time, kind string, fields map[string]string) error {
	if err := CheckFields(kind, fields); err != nil {
		return fmt.Errorf("audit %s: %w", kind, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stale {
		if err := l.recover(ctx); err != nil {
			return fmt.Errorf("audit %s: %w", kind, err)
		}
	}
	e, err := l.chain.next(t, kind, fields)
	if err != nil {
		return fmt.Errorf("audit %s: %w", kind, err)
	}
	data, err := e.Marshal()
	if err != nil {
		return fmt.Errorf("audit %s: %w", kind, err)
	}
	msg := &nats.Msg{Subject: events.AuditSubject(kind), Data: data}
	ack, err := l.js.PublishMsg(ctx, msg,
		jetstream.WithMsgID("audit:"+strconv.FormatUint(e.Seq, 10)),
		jetstream.WithExpectStream(events.StreamAudit),
		jetstream.WithExpectLastSequence(l.lastSeq))
	if err != nil {
		l.stale = true
		var apiErr *jetstream.APIError
		if errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
			apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant) {
			err = fmt.Errorf("%w: %w", ErrConflict, err)
		}
		return fmt.Errorf("audit %s: publish entry %d: %w", kind, e.Seq, err)
	}
	if ack.Duplicate {
		// Another entry already took this seq's Nats-Msg-Id; ours was dropped.
		l.stale = true
		return fmt.Errorf("audit %s: publish entry %d: %w: its id was taken", kind, e.Seq, ErrConflict)
	}
	l.chain.advance(e)
	l.lastSeq = ack.Sequence
	return nil
}

// recover reads the head back from the stream: the last entry that
// verifies, searching at most maxHeadSearch messages back.
func (l *Log) recover(ctx context.Context) error {
	s, err := l.js.Stream(ctx, events.StreamAudit)
	if err != nil {
		return fmt.Errorf("stream %s: %w", events.StreamAudit, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return fmt.Errorf("stream %s info: %w", events.StreamAudit, err)
	}
	st := info.State
	l.lastSeq = st.LastSeq
	l.chain.head, l.chain.last = Checkpoint{}, nil
	if st.Msgs == 0 {
		l.stale = false
		return nil
	}
	stop := st.FirstSeq
	if st.LastSeq-stop >= maxHeadSearch {
		stop = st.LastSeq - maxHeadSearch + 1
	}
	for seq := st.LastSeq; seq >= stop && seq > 0; seq-- {
		raw, err := s.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read %s seq %d: %w", events.StreamAudit, seq, err)
		}
		e, err := DecodeEntry(raw.Data)
		if err != nil || !authentic(l.chain.key, raw.Data, e) {
			continue
		}
		l.chain.advance(e)
		l.stale = false
		return nil
	}
	return fmt.Errorf("%w (searched stream seq %d to %d); if the audit key was replaced, the old chain can only be verified with the old key", ErrNoHead, stop, st.LastSeq)
}

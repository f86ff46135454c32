package audit

import (
	"bytes"
	"cmp"
	"crypto/hmac"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
)

// ErrTampered is wrapped by Report.Err when the chain did not verify.
var ErrTampered = errors.New("the audit log was changed")

// Kinds of Problem.
const (
	// ProblemMalformed: the message is not an audit entry at all.
	ProblemMalformed = "malformed"
	// ProblemModified: the entry changed after it was written: its MAC no
	// longer matches its content, but the next entry (or the checkpoint)
	// still links to that MAC. Also an entry stored under the wrong subject.
	ProblemModified = "modified"
	// ProblemForged: the entry's MAC does not verify under the audit key and
	// nothing vouches for it: written by someone without the key, or with
	// another key.
	ProblemForged = "forged"
	// ProblemRemoved: entries of the chain are missing.
	ProblemRemoved = "removed"
	// ProblemReordered: an entry appears after a later one.
	ProblemReordered = "reordered"
	// ProblemDuplicate: an entry appears twice.
	ProblemDuplicate = "duplicate"
	// ProblemBrokenLink: an authentic entry does not link to the one before
	// it; only someone holding the key can splice two chains like this.
	ProblemBrokenLink = "broken_link"
	// ProblemTruncated: the chain ends before the checkpoint's entry.
	ProblemTruncated = "truncated"
	// ProblemRewritten: the checkpoint's entry has another MAC.
	ProblemRewritten = "rewritten"
	// ProblemCheckpointLost: the daemon once started without its own
	// checkpoint or high-water mark (deleted, forged or unreadable), so a
	// tail cut off before that entry cannot be ruled out.
	ProblemCheckpointLost = "checkpoint_lost"
	// ProblemRolledBack: the chain ends before the high-water mark the
	// daemon keeps in the key store, or the daemon once started and found
	// it so: the log was replaced by an older copy, its genuine checkpoint
	// with it, and the entries after that copy are gone.
	ProblemRolledBack = "rolled_back"
	// ProblemPendingLost: entries the daemon could not write when they
	// happened, and kept to write later, were lost before they were
	// written: their file was deleted, rolled back or damaged.
	ProblemPendingLost = "pending_lost"
	// ProblemDamaged: the store could not read some of the stream's
	// messages: its files were changed or damaged on disk.
	ProblemDamaged = "damaged"
	// ProblemUnwritten: entries the daemon could not append since it
	// started (a full disk): kept to be written later, or, where they
	// could not even be kept, in no chain.
	ProblemUnwritten = "unwritten"
)

// maxProblems bounds a Report, so a chain verified under the wrong key does
// not produce a reply of a hundred thousand lines.
const maxProblems = 1000

// Message is one raw message of the AUDIT stream, in stream order.
type Message struct {
	StreamSeq uint64
	Subject   string
	Data      []byte
}

// Problem is one finding of verification and where it is: the stream
// sequence of the message (for removed entries, of the first message after
// the gap; for a truncated tail, one past the last message) and the entry
// sequence it concerns (0 when the message is not an entry).
type Problem struct {
	Kind      string `json:"kind"`
	StreamSeq uint64 `json:"stream_seq"`
	EntrySeq  uint64 `json:"entry_seq"`
	Detail    string `json:"detail"`
}

// String renders p for a person.
func (p Problem) String() string {
	return fmt.Sprintf("stream seq %d, entry %d: %s: %s", p.StreamSeq, p.EntrySeq, p.Kind, p.Detail)
}

// Report is the outcome of verifying the chain.
type Report struct {
	// OK is true when no problem was found.
	OK bool `json:"ok"`
	// Messages is how many messages were read.
	Messages uint64 `json:"messages"`
	// Head is the last authentic entry of the chain: what a daemon may keep
	// as its next Checkpoint when OK.
	Head Checkpoint `json:"head"`
	// Problems are sorted by stream sequence; at most 1000 are kept.
	Problems []Problem `json:"problems"`
	// Omitted counts problems found beyond those kept.
	Omitted int `json:"omitted,omitempty"`
}

// Err returns nil when r is OK, else an error wrapping ErrTampered that
// names the first problem.
func (r Report) Err() error {
	if r.OK {
		return nil
	}
	n := len(r.Problems) + r.Omitted
	if len(r.Problems) == 0 {
		return fmt.Errorf("%w: %d problems", ErrTampered, n)
	}
	return fmt.Errorf("%w: %d problem(s), the first at %s", ErrTampered, n, r.Problems[0])
}

// Verifier checks the chain one message at a time, in stream order, so a
// long log is verified without holding it in memory. It is not safe for
// concurrent use.
type Verifier struct {
	key     []byte
	cp      Checkpoint
	hw      Checkpoint // the high-water mark's head, when given
	expect  uint64     // the entry seq the next message should carry
	prev    []byte     // the MAC it should link to
	head    Checkpoint
	last    uint64   // stream seq of the last message read
	suspect *pending // an entry whose MAC failed, classified by the next one
	gaps    []gap
	report  Report
}

type pending struct {
	streamSeq uint64
	e         *Entry // nil for a malformed message
}

// gap is a run of missing entries, first seen before stream seq before.
type gap struct{ from, to, before uint64 }

// VerifyOption adds to what a Verifier checks the chain against.
type VerifyOption func(*Verifier)

// AgainstHighWater checks the chain against hw, the head of the
// HighWater the daemon keeps in the key store: a chain that ends before it
// is reported rolled back (the checkpoint may be an older genuine one,
// restored with the stream), and one whose entry hw.Seq has another MAC
// rewritten.
func AgainstHighWater(hw Checkpoint) VerifyOption {
	return func(v *Verifier) { v.hw = hw }
}

// NewVerifier returns a Verifier for a chain under key; cp is the head the
// caller remembers (the zero Checkpoint when none).
func NewVerifier(key []byte, cp Checkpoint, opts ...VerifyOption) (*Verifier, error) {
	if err := checkKey(key); err != nil {
		return nil, fmt.Errorf("verify audit log: %w", err)
	}
	v := &Verifier{key: bytes.Clone(key), cp: cp, expect: 1}
	for _, o := range opts {
		o(v)
	}
	return v, nil
}

// VerifyEntries verifies messages read from the AUDIT stream, in stream
// order. Verify uses the same Verifier on the live stream.
func VerifyEntries(msgs []Message, key []byte, cp Checkpoint, opts ...VerifyOption) (Report, error) {
	v, err := NewVerifier(key, cp, opts...)
	if err != nil {
		return Report{}, err
	}
	for _, m := range msgs {
		v.Add(m)
	}
	return v.Report(), nil
}

// Add checks the next message of the stream.
func (v *Verifier) Add(m Message) {
	v.report.Messages++
	v.last = m.StreamSeq
	e, err := DecodeEntry(m.Data)
	if err != nil {
		v.resolve(nil)
		v.problem(ProblemMalformed, m.StreamSeq, 0, err.Error())
		v.suspect = &pending{streamSeq: m.StreamSeq} // may fill a slot, like a forgery
		return
	}
	if want := events.AuditSubject(e.Kind); m.Subject != want {
		v.problem(ProblemModified, m.StreamSeq, e.Seq, fmt.Sprintf("stored under subject %q, but its kind says %q", m.Subject, want))
	}
	if !authentic(v.key, m.Data, e) {
		v.resolve(nil)
		v.suspect = &pending{streamSeq: m.StreamSeq, e: e}
		return
	}
	v.resolve(e)
	v.link(m.StreamSeq, e)
}

// addUnwritten reports the entries the daemon could not append.
func (r *Report) addUnwritten(u Unwritten) {
	if u.Kept > 0 {
		r.Problems = append(r.Problems, Problem{Kind: ProblemUnwritten, StreamSeq: r.Messages + 1, Detail: fmt.Sprintf(
			"%d entries the stream could not take are kept to be written (see the daemon's log: a full disk?); they are written, in order, when it can", u.Kept)})
	}
	if u.Lost > 0 {
		r.Problems = append(r.Problems, Problem{Kind: ProblemUnwritten, StreamSeq: r.Messages + 1, Detail: fmt.Sprintf(
			"%d entries could be neither written nor kept since the daemon started (see its log: a full disk?); what they recorded is in no chain", u.Lost)})
	}
	r.OK = r.OK && len(r.Problems) == 0
}

// Lost reports stream messages the store could not read (a block file
// changed or damaged on disk): the entries they held were tampered with,
// whatever the chain around them shows.
func (v *Verifier) Lost(streamSeqs []uint64) {
	if len(streamSeqs) == 0 {
		return
	}
	first, last := slices.Min(streamSeqs), slices.Max(streamSeqs)
	v.problem(ProblemDamaged, first, 0, fmt.Sprintf(
		"the store could not read %d message(s) between stream seq %d and %d: its files were changed or damaged on disk", len(streamSeqs), first, last))
}

// resolve classifies the suspect entry once the next entry is known
// (next is nil when it is not authentic, or at the end).
func (v *Verifier) resolve(next *Entry) {
	s := v.suspect
	if s == nil {
		return
	}
	v.suspect = nil
	if s.e == nil { // malformed, and reported as such
		v.fillSlot(next)
		return
	}
	vouched := next != nil && hmac.Equal(next.Prev, s.e.MAC)
	if !vouched && next == nil && (v.cp.Seq == s.e.Seq && hmac.Equal(v.cp.MAC, s.e.MAC) ||
		v.hw.Seq == s.e.Seq && hmac.Equal(v.hw.MAC, s.e.MAC)) {
		vouched = true
	}
	if vouched {
		v.problem(ProblemModified, s.streamSeq, s.e.Seq, "its content does not match its MAC, which the chain still links to: it was changed after it was written")
		if s.e.Seq == v.expect {
			v.accept(s.streamSeq, s.e)
		}
		return
	}
	v.problem(ProblemForged, s.streamSeq, s.e.Seq, "its MAC does not verify under the audit key and no later entry links to it: written without the key, or with another key")
	if s.e.Seq == v.expect {
		v.fillSlot(next)
	}
}

// fillSlot accounts for a bad message that took the place of entry
// v.expect when the authentic next entry is the one after it: that entry's
// Prev is the MAC of the original, which is all the chain needs, and the
// bad message is already reported.
func (v *Verifier) fillSlot(next *Entry) {
	if next != nil && next.Seq == v.expect+1 {
		v.expect, v.prev = next.Seq, next.Prev
	}
}

// link checks that authentic e follows the chain so far.
func (v *Verifier) link(streamSeq uint64, e *Entry) {
	switch {
	case e.Seq == v.expect:
		if !hmac.Equal(e.Prev, v.prev) {
			v.problem(ProblemBrokenLink, streamSeq, e.Seq, fmt.Sprintf("its prev is not the MAC of entry %d: two chains were spliced", e.Seq-1))
		}
		v.accept(streamSeq, e)
	case e.Seq > v.expect:
		v.gaps = append(v.gaps, gap{from: v.expect, to: e.Seq - 1, before: streamSeq})
		v.accept(streamSeq, e)
	case v.fill(e.Seq):
		v.problem(ProblemReordered, streamSeq, e.Seq, fmt.Sprintf("entry %d appears after entry %d", e.Seq, v.expect-1))
	default:
		v.problem(ProblemDuplicate, streamSeq, e.Seq, fmt.Sprintf("entry %d appears a second time", e.Seq))
	}
}

// accept makes e the chain's last entry.
func (v *Verifier) accept(streamSeq uint64, e *Entry) {
	v.expect, v.prev = e.Seq+1, e.MAC
	switch e.Kind {
	case KindCheckpointLost:
		v.checkpointLost(streamSeq, e)
	case KindPendingLost:
		v.problem(ProblemPendingLost, streamSeq, e.Seq, fmt.Sprintf(
			"the daemon started and found that %s entries it had kept to write later were lost before they were written: their file %s",
			e.Fields[FieldCount], pendingLoss[e.Fields[FieldReason]]))
	}
	v.head = Checkpoint{Seq: e.Seq, MAC: e.MAC}
	if e.Seq == v.cp.Seq && !hmac.Equal(e.MAC, v.cp.MAC) {
		v.problem(ProblemRewritten, streamSeq, e.Seq, "the checkpoint remembers another MAC for this entry: the chain was rewritten since")
	} else if e.Seq == v.hw.Seq && !hmac.Equal(e.MAC, v.hw.MAC) {
		v.problem(ProblemRewritten, streamSeq, e.Seq, "the high-water mark kept in the key store remembers another MAC for this entry: the chain was rewritten since")
	}
}

// pendingLoss says what happened to the file of kept entries, by the
// reason of an audit.pending_lost entry.
var pendingLoss = map[string]string{
	PendingMissing:    "was deleted",
	PendingRolledBack: "was replaced by an older copy",
	PendingForged:     "was written without the audit key",
	PendingUnreadable: "could not be read",
}

// checkpointLost reports an audit.checkpoint_lost entry: a loss the daemon
// found when it started, said in the chain so that no later checkpoint can
// make the gap look whole.
func (v *Verifier) checkpointLost(streamSeq uint64, e *Entry) {
	count, hw := e.Fields[FieldCount], e.Fields[FieldHighWater]
	switch reason := e.Fields[FieldReason]; reason {
	case CheckpointRolledBack:
		v.problem(ProblemRolledBack, streamSeq, e.Seq, fmt.Sprintf(
			"the daemon started and found the log rolled back: the chain ended at entry %s but the high-water mark kept in the key store remembered entry %s; what was recorded after entry %s was replaced by an older copy",
			count, hw, count))
	case CheckpointTruncated:
		v.problem(ProblemTruncated, streamSeq, e.Seq, fmt.Sprintf(
			"the daemon started and found the chain cut off: it ended at entry %s but the checkpoint remembered entry %s", count, hw))
	case HighWaterForged, HighWaterUnreadable:
		v.problem(ProblemCheckpointLost, streamSeq, e.Seq, fmt.Sprintf(
			"the daemon started with its high-water mark in the key store %s after entry %s: a rollback to before then cannot be ruled out",
			strings.TrimPrefix(reason, "high_water_"), count))
	default:
		v.problem(ProblemCheckpointLost, streamSeq, e.Seq, fmt.Sprintf(
			"the daemon started with its audit checkpoint %s after entry %s: entries cut off before then cannot be ruled out",
			reason, count))
	}
}

// fill removes seq from the gaps and reports whether it was in one.
func (v *Verifier) fill(seq uint64) bool {
	for i, g := range v.gaps {
		if seq < g.from || seq > g.to {
			continue
		}
		var rest []gap
		if seq > g.from {
			rest = append(rest, gap{g.from, seq - 1, g.before})
		}
		if seq < g.to {
			rest = append(rest, gap{seq + 1, g.to, g.before})
		}
		v.gaps = slices.Replace(v.gaps, i, i+1, rest...)
		return true
	}
	return false
}

func (v *Verifier) problem(kind string, streamSeq, entrySeq uint64, detail string) {
	if len(v.report.Problems) >= maxProblems {
		v.report.Omitted++
		return
	}
	v.report.Problems = append(v.report.Problems, Problem{Kind: kind, StreamSeq: streamSeq, EntrySeq: entrySeq, Detail: detail})
}

// Report ends verification and returns what it found. Call it once, after
// the last Add.
func (v *Verifier) Report() Report {
	v.resolve(nil)
	for _, g := range v.gaps {
		d := fmt.Sprintf("entry %d is missing", g.from)
		if g.to > g.from {
			d = fmt.Sprintf("entries %d to %d (%d) are missing", g.from, g.to, g.to-g.from+1)
		}
		v.problem(ProblemRemoved, g.before, g.from, d)
	}
	v.gaps = nil
	switch {
	case v.hw.Seq > v.head.Seq && v.hw.Seq > v.cp.Seq:
		v.problem(ProblemRolledBack, v.last+1, v.head.Seq+1, fmt.Sprintf(
			"the chain ends at entry %d but the high-water mark kept in the key store remembers entry %d: the log was rolled back to an older copy, and entries %d to %d are gone",
			v.head.Seq, v.hw.Seq, v.head.Seq+1, v.hw.Seq))
	case v.cp.Seq > v.head.Seq:
		v.problem(ProblemTruncated, v.last+1, v.head.Seq+1, fmt.Sprintf(
			"the chain ends at entry %d but the checkpoint remembers entry %d: entries %d to %d were cut off",
			v.head.Seq, v.cp.Seq, v.head.Seq+1, v.cp.Seq))
	}
	r := v.report
	slices.SortStableFunc(r.Problems, func(a, b Problem) int { return cmp.Compare(a.StreamSeq, b.StreamSeq) })
	r.Head = v.head
	r.OK = len(r.Problems) == 0 && r.Omitted == 0
	if r.Problems == nil {
		r.Problems = []Problem{}
	}
	return r
}

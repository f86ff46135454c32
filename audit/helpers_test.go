package audit

import (
	"bytes"
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/embedded"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
)

var (
	testKey  = bytes.Repeat([]byte{0x42}, 32)
	otherKey = bytes.Repeat([]byte{0x17}, 32)
	t0       = time.Unix(1712345678, 0)
)

// buildChain returns n messages of a valid chain under key, as they would
// sit in a fresh AUDIT stream (stream seq = entry seq), and its head.
func buildChain(tb testing.TB, n int, key []byte) ([]Message, Checkpoint) {
	tb.Helper()
	c, err := newChain(key, Checkpoint{})
	if err != nil {
		tb.Fatal(err)
	}
	return extendChain(tb, c, nil, n, 0), c.head
}

// extendChain appends n entries built by c to msgs; timeOffset keeps two
// chains built from the same head apart.
func extendChain(tb testing.TB, c *chain, msgs []Message, n int, timeOffset time.Duration) []Message {
	tb.Helper()
	for range n {
		i := len(msgs)
		kind, fields := sampleEntry(i)
		e, err := c.next(t0.Add(timeOffset+time.Duration(i)*time.Millisecond), kind, fields)
		if err != nil {
			tb.Fatal(err)
		}
		data, err := e.Marshal()
		if err != nil {
			tb.Fatal(err)
		}
		c.advance(e)
		msgs = append(msgs, Message{StreamSeq: uint64(i + 1), Subject: events.AuditSubject(kind), Data: data})
	}
	return msgs
}

// sampleEntry varies kinds and fields the way a day of use would.
func sampleEntry(i int) (string, map[string]string) {
	switch i % 4 {
	case 0:
		return KindRecordingStarted, map[string]string{FieldRecordingID: "rec_" + strconv.Itoa(i), FieldMode: "demonstration", FieldRoute: "extract_then_cloud", FieldChannels: "browser,floor"}
	case 1:
		return KindRecordingStopped, map[string]string{FieldRecordingID: "rec_" + strconv.Itoa(i-1), FieldStepCount: strconv.Itoa(i % 97)}
	case 2:
		return KindReplayRow, map[string]string{FieldRunID: "run_1", FieldRow: strconv.Itoa(i), FieldOutcome: "committed"}
	}
	return KindConsentUsed, nil
}

// renumber gives msgs the stream seqs of a stream holding them in this order.
func renumber(msgs []Message) []Message {
	for i := range msgs {
		msgs[i].StreamSeq = uint64(i + 1)
	}
	return msgs
}

// editEntry decodes msgs[i], lets edit change it, and re-encodes it without
// recomputing the MAC: what someone without the key can do.
func editEntry(tb testing.TB, msgs []Message, i int, edit func(*Entry)) {
	tb.Helper()
	e, err := DecodeEntry(msgs[i].Data)
	if err != nil {
		tb.Fatal(err)
	}
	edit(e)
	if msgs[i].Data, err = e.Marshal(); err != nil {
		tb.Fatal(err)
	}
}

// forge returns an entry at seq linking to prev, MACed under otherKey.
func forge(tb testing.TB, seq uint64, prev []byte) Message {
	tb.Helper()
	c, err := newChain(otherKey, Checkpoint{Seq: seq - 1, MAC: prev})
	if err != nil {
		tb.Fatal(err)
	}
	e, err := c.next(t0, KindConsentUsed, map[string]string{FieldRecordingID: "rec_forged"})
	if err != nil {
		tb.Fatal(err)
	}
	data, err := e.Marshal()
	if err != nil {
		tb.Fatal(err)
	}
	return Message{Subject: events.AuditSubject(e.Kind), Data: data}
}

func macOf(tb testing.TB, m Message) []byte {
	tb.Helper()
	e, err := DecodeEntry(m.Data)
	if err != nil {
		tb.Fatal(err)
	}
	return e.MAC
}

// startJS starts a real embedded server with the shim's stores and returns
// the server and a daemon connection's JetStream context.
func startJS(tb testing.TB) (*embedded.Server, *nats.Conn, jetstream.JetStream) {
	tb.Helper()
	return natstest.Start(tb, "m_test")
}

// connectCLI connects to s over TCP as the local CLI user.
func connectCLI(tb testing.TB, s *embedded.Server) *nats.Conn {
	tb.Helper()
	nc, err := nats.Connect(s.ClientURL(), embedded.CLIOptions(s.Password(embedded.RoleCLI))...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(nc.Close)
	return nc
}

func testCtx(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	tb.Cleanup(cancel)
	return ctx
}

// publishRaw stores m in the AUDIT stream as is, bypassing Log.
func publishRaw(tb testing.TB, js jetstream.JetStream, m Message) uint64 {
	tb.Helper()
	ack, err := js.Publish(testCtx(tb), m.Subject, m.Data)
	if err != nil {
		tb.Fatal(err)
	}
	return ack.Sequence
}

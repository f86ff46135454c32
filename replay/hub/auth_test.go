package hub

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
)

func testKeys(t testing.TB) (ours, theirs *Key) {
	dir := t.TempDir()
	ours, err := LoadKey(filepath.Join(dir, "a"), true)
	if err != nil {
		t.Fatal(err)
	}
	theirs, err = LoadKey(filepath.Join(dir, "b"), true)
	if err != nil {
		t.Fatal(err)
	}
	return ours, theirs
}

// msg is a queue message as a worker gets it.
type msg struct {
	jetstream.Msg
	subject string
	data    []byte
	header  nats.Header
}

func (m msg) Subject() string      { return m.subject }
func (m msg) Data() []byte         { return m.data }
func (m msg) Headers() nats.Header { return m.header }

func stamped(k *Key, kind, subject string, data []byte) msg {
	m := &nats.Msg{Subject: subject, Data: data}
	k.stamp(m, kind)
	return msg{subject: subject, data: data, header: m.Header}
}

// A MAC checks only for the key, kind, subject and bytes it was made for.
func TestMACChecksOnlyWhatItWasMadeFor(t *testing.T) {
	ours, theirs := testKeys(t)
	data := []byte("a row's bytes")
	good := stamped(ours, kindRow, "hub.rows.r", data)
	withMAC := func(mac string) nats.Header {
		return nats.Header{HeaderKey: []string{ours.ID()}, HeaderMAC: []string{mac}}
	}
	for _, c := range []struct {
		name    string
		h       nats.Header
		kind    string
		subject string
		data    []byte
		want    error
	}{
		{"genuine", good.header, kindRow, "hub.rows.r", data, nil},
		{"no headers", nil, kindRow, "hub.rows.r", data, ErrNotAuthentic},
		{"no MAC", nats.Header{HeaderKey: []string{ours.ID()}}, kindRow, "hub.rows.r", data, ErrNotAuthentic},
		{"MAC not base64", withMAC("%%%"), kindRow, "hub.rows.r", data, ErrNotAuthentic},
		{"MAC made up", withMAC(base64.RawStdEncoding.EncodeToString(make([]byte, 32))), kindRow, "hub.rows.r", data, ErrNotAuthentic},
		{"MAC cut short", withMAC(good.header.Get(HeaderMAC)[:10]), kindRow, "hub.rows.r", data, ErrNotAuthentic},
		{"another kind", good.header, kindEvent, "hub.rows.r", data, ErrNotAuthentic},
		{"another subject", good.header, kindRow, "hub.rows.s", data, ErrNotAuthentic},
		{"bytes cut short", good.header, kindRow, "hub.rows.r", data[:5], ErrNotAuthentic},
		{"bytes added", good.header, kindRow, "hub.rows.r", append(bytes.Clone(data), 0), ErrNotAuthentic},
		{"another key", stamped(theirs, kindRow, "hub.rows.r", data).header, kindRow, "hub.rows.r", data, ErrForeignKey},
	} {
		if err := ours.check(c.h, c.kind, c.subject, c.data); !errors.Is(err, c.want) {
			t.Errorf("%s: check = %v; want %v", c.name, err, c.want)
		}
	}
	// A key id a hub user made up is quoted and cut short in messages.
	err := ours.check(nats.Header{HeaderKey: []string{"\x1b[2J" + strings.Repeat("x", 100)}}, kindRow, "s", nil)
	var ke *KeyError
	if !errors.As(err, &ke) || strings.Contains(err.Error(), "\x1b") || len(err.Error()) > 200 {
		t.Errorf("a made-up key id reads %q", err)
	}
}

// A worker opens a row only when its MAC holds and it names the run of
// the subject it came on; another key's row is a *KeyError.
func TestWorkerOpensOnlyAuthenticRows(t *testing.T) {
	ours, theirs := testKeys(t)
	w := &Worker{Key: ours}
	item := func(run string, row, session int) []byte {
		b, err := events.AppendMsgpack(nil, &Item{Run: run, Row: row, Session: session, SkillID: "s", Values: []byte("sealed")})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	good := item("r1", 1, 1)
	forged := stamped(ours, kindRow, rowsPrefix+"r1", good)
	forged.data = item("r1", 2, 1)
	for _, c := range []struct {
		name string
		m    msg
		want error
	}{
		{"genuine", stamped(ours, kindRow, rowsPrefix+"r1", good), nil},
		{"unsigned", msg{subject: rowsPrefix + "r1", data: good}, ErrNotAuthentic},
		{"another row under row 1's MAC", forged, ErrNotAuthentic},
		{"cut short, MACed as such", stamped(ours, kindRow, rowsPrefix+"r1", good[:len(good)/2]), ErrNotAuthentic},
		{"not msgpack, MACed", stamped(ours, kindRow, rowsPrefix+"r1", []byte{0xc1, 0xff}), ErrNotAuthentic},
		{"on another run's subject", stamped(ours, kindRow, rowsPrefix+"r2", good), ErrNotAuthentic},
		{"row 0", stamped(ours, kindRow, rowsPrefix+"r1", item("r1", 0, 1)), ErrNotAuthentic},
		{"session 0", stamped(ours, kindRow, rowsPrefix+"r1", item("r1", 1, 0)), ErrNotAuthentic},
		{"another key", stamped(theirs, kindRow, rowsPrefix+"r1", good), ErrForeignKey},
	} {
		if _, err := w.open(c.m); !errors.Is(err, c.want) {
			t.Errorf("%s: open = %v; want %v", c.name, err, c.want)
		}
	}
}

// A claim opens only under its key name, whole, with the hub key's MAC.
func TestClaimOpensOnlyWhole(t *testing.T) {
	ours, theirs := testKeys(t)
	c := claim{Run: "r1", Row: 3, Holder: "w/0/1/ab", At: 1234}
	sealed := ours.sealClaim("k", c)
	if got, err := ours.openClaim("k", sealed); err != nil || got.Run != "r1" || got.Row != 3 || got.Holder != c.Holder || got.At != 1234 {
		t.Fatalf("openClaim(sealClaim(c)) = %+v, %v; want c", got, err)
	}
	changed := bytes.Replace(sealed, []byte(`"row":3`), []byte(`"row":4`), 1)
	for _, c := range []struct {
		name  string
		key   string
		value []byte
		k     *Key
	}{
		{"under another key name", "k2", sealed, ours},
		{"a field changed", "k", changed, ours},
		{"no MAC", "k", []byte(`{"run":"r1","row":3,"holder":"x","at":1}`), ours},
		{"not JSON", "k", []byte("{"), ours},
		{"cut short", "k", sealed[:len(sealed)/2], ours},
		{"empty", "k", nil, ours},
		{"another key", "k", sealed, theirs},
	} {
		if _, err := c.k.openClaim(c.key, c.value); !errors.Is(err, ErrNotAuthentic) {
			t.Errorf("%s: openClaim = %v; want ErrNotAuthentic", c.name, err)
		}
	}
}

// Through the events view, a message without a valid MAC has no subject
// and no body; a genuine one is itself.
func TestEventsViewBlanksForgeries(t *testing.T) {
	ours, theirs := testKeys(t)
	subject := events.ReplaySubject("r1", 1, "result")
	genuine := stamped(ours, kindEvent, subject, []byte("line"))
	for _, c := range []struct {
		name string
		m    msg
		ok   bool
	}{
		{"genuine", genuine, true},
		{"bare", msg{subject: subject, data: []byte("line")}, false},
		{"a queued row's MAC", stamped(ours, kindRow, subject, []byte("line")), false},
		{"another key's", stamped(theirs, kindEvent, subject, []byte("line")), false},
		{"cut short", msg{subject: subject, data: []byte("li"), header: genuine.header}, false},
	} {
		got := ours.checked(c.m)
		if ok := got.Subject() == subject && string(got.Data()) == string(c.m.data); ok != c.ok {
			t.Errorf("%s: reads as %q %q; want it read whole: %v", c.name, got.Subject(), got.Data(), c.ok)
		}
	}
}

// The coordinator answers only its own workers' requests: bare, cut short
// or another key's get nothing; a take is granted once, busy while its
// holder shows signs of life, given back only by its holder, and settled
// (never filed blindly) when granted before.
func TestGranterAnswersOnlyTheKey(t *testing.T) {
	_, nc, js := natstest.Start(t, "m_grant")
	ours, theirs := testKeys(t)
	l, _, err := openLedger(t.TempDir(), ours.ID(), "skill")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	g := &granter{k: ours, nc: nc, ledger: l, run: "r1", session: 2,
		rows: map[int]*rowGrant{1: {key: "k1"}, 2: {key: "k2"}, 3: {key: "k3", maybe: "run r0 began it"}}}
	if err := g.serve(); err != nil {
		t.Fatal(err)
	}
	defer g.stop()
	w := &Worker{JS: js, Key: ours}
	takeRow := func(row, session int) (grant []byte, ans string) {
		t.Helper()
		grant, a, err := w.take(context.Background(), Item{Run: "r1", Row: row, Session: session})
		if err != nil {
			return nil, err.Error()
		}
		return grant, a.Answer
	}
	// Requests the coordinator must not answer: each waits out the take's
	// timeout, so they are sent bare, and the answers looked for after.
	inbox := nc.NewInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		t.Fatal(err)
	}
	take, _ := events.AppendMsgpack(nil, &ask{Op: opTake, Run: "r1", Row: 1, Session: 2, Grant: []byte("g")})
	for _, m := range []*nats.Msg{
		{Subject: grantPrefix + "r1", Reply: inbox, Data: take},
		stampedMsg(ours, grantPrefix+"r1", inbox, take[:len(take)-3]),
		stampedMsg(theirs, grantPrefix+"r1", inbox, take),
		stampedMsg(ours, grantPrefix+"r2", inbox, take), // another run's subject
	} {
		if err := nc.PublishMsg(m); err != nil {
			t.Fatal(err)
		}
	}
	grant, ans := takeRow(1, 2)
	if ans != ansFile {
		t.Fatalf("the first take of row 1 = %q; want %q", ans, ansFile)
	}
	if m, err := sub.NextMsg(10 * time.Millisecond); err == nil {
		t.Errorf("a request without the key was answered: %q", m.Data)
	}
	if _, ans := takeRow(1, 2); ans != ansBusy {
		t.Errorf("a take of row 1 while its holder lives = %q; want %q", ans, ansBusy)
	}
	if _, ans := takeRow(1, 1); ans != ansStale {
		t.Errorf("a take of row 1 of session 1 = %q; want %q", ans, ansStale)
	}
	if _, ans := takeRow(9, 2); ans != ansStale {
		t.Errorf("a take of a row not queued = %q; want %q", ans, ansStale)
	}
	if _, ans := takeRow(3, 2); ans != ansSettle {
		t.Errorf("a take of row 3, which another run began = %q; want %q", ans, ansSettle)
	}
	// Given back by someone else: still held. By its holder: free, and
	// granted to file as before.
	_ = w.tell(opRelease, Item{Run: "r1", Row: 1, Session: 2}, []byte("another grant"), "")
	if _, ans := takeRow(1, 2); ans != ansBusy {
		t.Errorf("row 1 after someone else gave it back = %q; want %q", ans, ansBusy)
	}
	// (The worker and the coordinator share a connection here: the
	// release arrives before the take.)
	_ = w.tell(opRelease, Item{Run: "r1", Row: 1, Session: 2}, grant, "")
	if _, again := takeRow(1, 2); again != ansFile {
		t.Errorf("row 1 given back by its holder = %q; want %q", again, ansFile)
	}
	// Its holder gone silent, the next take settles it.
	old := aliveFor
	aliveFor = 0
	defer func() { aliveFor = old }()
	if _, ans := takeRow(1, 2); ans != ansSettle {
		t.Errorf("row 1, its holder silent = %q; want %q", ans, ansSettle)
	}
	g.settled(1)
	if _, ans := takeRow(1, 2); ans != ansDone {
		t.Errorf("row 1 with its result = %q; want %q", ans, ansDone)
	}
	if _, ans := takeRow(2, 2); ans != ansFile {
		t.Errorf("row 2 = %q; want %q", ans, ansFile)
	}
	if rr, ok := g.lost(2); !ok || rr.Outcome != "unknown" {
		t.Errorf("row 2 lost after its grant = %+v %v; want unknown", rr, ok)
	}
	g.rows[4] = &rowGrant{}
	if rr, ok := g.lost(4); !ok || rr.Outcome != "failed" || !strings.Contains(rr.Reason, "not run") {
		t.Errorf("row 4 lost, never granted = %+v %v; want failed, not run", rr, ok)
	}
}

func stampedMsg(k *Key, subject, reply string, data []byte) *nats.Msg {
	m := &nats.Msg{Subject: subject, Reply: reply, Data: data}
	k.stamp(m, kindGrant)
	return m
}

// The ledger skips a line a crash cut short, and starts the next on a
// line of its own; its history folds grants, releases and results.
func TestLedgerSurvivesACrashMidLine(t *testing.T) {
	dir := t.TempDir()
	l, _, err := openLedger(dir, "id", "skill")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.add(entry{Run: "r1", Row: 1, Session: 1, Key: "k1", State: stGranted, Grant: "aa"}); err != nil {
		t.Fatal(err)
	}
	path := l.f.Name()
	l.Close()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"run":"r1","row":2,"sess`)
	f.Close()
	l, got, err := openLedger(dir, "id", "skill")
	if err != nil || len(got) != 1 {
		t.Fatalf("reopened: %+v, %v; want the one whole entry", got, err)
	}
	if err := l.add(entry{Run: "r1", Row: 1, Session: 1, Key: "k1", State: "committed"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	_, got, err = openLedger(dir, "id", "skill")
	if err != nil || len(got) != 2 || got[1].State != "committed" {
		t.Fatalf("after a crash mid-line and one more entry: %+v, %v", got, err)
	}
}

func TestLedgerHistory(t *testing.T) {
	g := func(run string, row int, state, grant string) entry {
		return entry{Run: run, Row: row, Session: 1, Key: run + hex.EncodeToString([]byte{byte(row)}), State: state, Grant: grant}
	}
	h := readHistory([]entry{
		g("r", 1, stGranted, "a"), g("r", 1, stReleased, "a"), // given back: nothing filed
		g("r", 2, stGranted, "a"), g("r", 2, stGranted, "b"), g("r", 2, stReleased, "b"), // the first grant's holder died
		g("r", 3, stGranted, "a"), g("r", 3, stReleased, "z"), // someone else's release
		g("r", 4, stGranted, "a"), g("r", 4, "failed", ""), // nothing filed
		g("r", 5, stGranted, "a"), g("r", 5, "unknown", ""),
		g("o", 1, stGranted, "a"), g("o", 1, "committed", ""),
		g("o", 2, stGranted, "a"),
		g("o", 3, stGranted, "a"), g("o", 3, "skipped", ""),
	}, "r")
	for _, c := range []struct {
		row     int
		maybe   bool
		outcome string
	}{{1, false, ""}, {2, true, ""}, {3, true, ""}, {4, false, "failed"}, {5, true, "unknown"}} {
		r := h.rows[c.row]
		if r == nil || r.maybe != c.maybe || r.outcome != c.outcome {
			t.Errorf("row %d: %+v; want maybe %v, outcome %q", c.row, r, c.maybe, c.outcome)
		}
	}
	if h.filed["o"+"01"] != "o" || h.began["o"+"02"] != "o" || h.began["o"+"03"] != "" || len(h.filed)+len(h.began) != 2 {
		t.Errorf("other runs: filed %v, began %v; want o's row 1 filed, row 2 begun", h.filed, h.began)
	}
}

// Whatever a claim's value holds, openClaim neither panics nor opens
// anything but the fields a sealClaim of the same key made.
func FuzzOpenClaim(f *testing.F) {
	k, _ := testKeys(f)
	f.Add(k.sealClaim("k", claim{Run: "r", Row: 1, Holder: "h", At: 1}))
	f.Add([]byte(`{"run":"r","row":1,"mac":"AAAA"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := k.openClaim("k", b)
		if err != nil {
			return
		}
		again, err := k.openClaim("k", k.sealClaim("k", c))
		if err != nil || again.Run != c.Run || again.Row != c.Row || again.Holder != c.Holder || again.At != c.At {
			t.Errorf("opened %+v from %q, which a seal of it does not give back", c, b)
		}
	})
}

// Whatever a queued row's bytes are, MACed by a key holder, open neither
// panics nor takes them for a row of another subject.
func FuzzOpenRow(f *testing.F) {
	k, _ := testKeys(f)
	w := &Worker{Key: k}
	good, _ := events.AppendMsgpack(nil, &Item{Run: "r1", Row: 1, Session: 1})
	f.Add(good)
	f.Add([]byte{0xc1})
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := w.open(stamped(k, kindRow, rowsPrefix+"r1", b))
		if err == nil && (it.Run != "r1" || it.Row < 1 || it.Session < 1) {
			t.Errorf("opened %+v from %q", it, b)
		}
	})
}

// Whatever the ledger file holds, reading it neither panics nor returns
// an entry without a run and a state.
func FuzzReadLedger(f *testing.F) {
	f.Add([]byte(`{"run":"r","row":1,"session":1,"state":"granted"}` + "\n" + `{"run":`))
	f.Fuzz(func(t *testing.T, b []byte) {
		es, _ := readLedger(bytes.NewReader(b))
		for _, e := range es {
			if e.Run == "" || e.State == "" {
				t.Errorf("read %+v", e)
			}
		}
	})
}

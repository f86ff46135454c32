//go:build !windows

package hub

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/internal/natstest"
	"github.com/reprise-dev/reprise/replay"
)

const hubPassword = "hub-password-not-the-key"

// TestHubHoldsAgainstAUserWithoutTheKey is the threat model for a hub in
// docs/scale-out.md, "What a hub user without the key can and cannot do",
// case by case: a hostile client of the real nats-server with the
// hub's user and password, everything NATS lets that user do, and no hub
// key. It can delay a run and drop its rows (reported not run or
// unknown); it cannot make a row reported committed, nor a row filed
// twice, nor a worker with the wrong key take rows; and a hub password is
// never taken from a command line.
func TestHubHoldsAgainstAUserWithoutTheKey(t *testing.T) {
	// Signs of life come often, so that a grant's holder is found gone
	// within a second; polls are fast. Nothing waits on these: each case
	// waits on what it needs.
	oldBeat, oldAlive, oldCheck := beat, aliveFor, queueCheck
	beat, aliveFor, queueCheck = 100*time.Millisecond, time.Second, 50*time.Millisecond
	t.Cleanup(func() { beat, aliveFor, queueCheck = oldBeat, oldAlive, oldCheck })

	// One hub for every case (each has its own runs, key, ledger and
	// site): a nats-server cluster of one never elects a leader.
	hub := natstest.StartCluster(t, 3, "reprise", hubPassword)
	for _, c := range []struct {
		name string
		try  func(*arena, *testing.T)
	}{
		{"forged committed results and marks are ignored", (*arena).forgedResults},
		{"purged queued rows are reported not run, never committed", (*arena).purgedRows},
		{"a purged row whose worker died is reported unknown", (*arena).purgedRowWorkerDied},
		{"purged claims and marks do not make a resume or a re-run refile", (*arena).purgedClaims},
		{"a genuine row queued again is not filed twice", (*arena).copiedRow},
		{"a worker with the wrong key stops at its first row and says why", (*arena).wrongKey},
		{"a password on the command line is refused", (*arena).argvPassword},
	} {
		t.Run(c.name, func(t *testing.T) { c.try(newArena(t, hub), t) })
	}
}

// arena is one real nats-server hub, a coordinator's connection with the
// hub key and its ledger, and the enemy's: the hub's user, no key.
type arena struct {
	hub    *natstest.Cluster
	js     jetstream.JetStream
	enemy  jetstream.JetStream
	key    *Key
	ledger string
	site   *site
	ctx    context.Context
}

func newArena(t *testing.T, hub *natstest.Cluster) *arena {
	_, js := hub.Connect(t)
	_, enemy := hub.Connect(t)
	dir := t.TempDir()
	key, err := LoadKey(filepath.Join(dir, "hub.key"), true)
	if err != nil {
		t.Fatal(err)
	}
	// One bound for every case of the test together, generous: a run on
	// an idle machine takes 20 s, and make test's load made 2 minutes run
	// out mid-case (a worker stopped by it never reached its held row).
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	t.Cleanup(cancel)
	if err := Ensure(ctx, js); err != nil {
		t.Fatal(err)
	}
	return &arena{hub: hub, js: js, enemy: enemy, key: key, ledger: filepath.Join(dir, "ledger"), site: newSite(), ctx: ctx}
}

func email(i int) string { return fmt.Sprintf("row%d@example.org", i) }

// run is a coordinator's run of n rows on the arena's hub.
func (a *arena) run(t *testing.T, id string, n int) *Run {
	p, doc := plan(t, id, n, email)
	return &Run{JS: a.js, Key: a.key, Plan: p, Doc: doc, Ledger: a.ledger}
}

// worker starts a worker with key, on a connection of its own; stop ends
// it, and done has what its Run returned.
func (a *arena) worker(t *testing.T, key *Key, name string, execs ...replay.Executor) (done <-chan error, stop func()) {
	_, js := a.hub.Connect(t)
	ctx, cancel := context.WithCancel(a.ctx)
	out, ended := make(chan error, 1), make(chan struct{})
	w := &Worker{JS: js, Key: key, Name: name, Tabs: Fixed(execs)}
	go func() {
		defer close(ended)
		out <- w.Run(ctx)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-ended
		})
	}
	t.Cleanup(stop)
	return out, stop
}

// await waits for the worker to reach the row the site holds, failing
// the test when the worker ends first or the test's time runs out: a
// hold never reached is a failure to report, not a hang.
func (a *arena) await(t *testing.T, held <-chan int, worked <-chan error) {
	t.Helper()
	select {
	case <-held:
	case err := <-worked:
		t.Fatalf("the worker ended before it reached the held row: %v", err)
	case <-a.ctx.Done():
		t.Fatalf("the worker did not reach the held row: %v", a.ctx.Err())
	}
}

// queued is how many of run's rows are on the queue (taken ones too,
// until they are acked).
func (a *arena) queued(t *testing.T, run string) uint64 {
	t.Helper()
	rows, err := a.js.Stream(a.ctx, StreamRows)
	if err != nil {
		t.Fatal(err)
	}
	info, err := rows.Info(a.ctx, jetstream.WithSubjectFilter(rowsPrefix+run))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects[rowsPrefix+run]
}

// until polls cond, for as long as the arena lasts.
func (a *arena) until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-a.ctx.Done():
			t.Fatalf("no %s before the test's time ran out", what)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// forge publishes v on subject as the enemy can: bare, under the key's
// id (every message of the hub shows it) with a made-up MAC, and cut short.
func (a *arena) forge(t *testing.T, subject string, v any) {
	t.Helper()
	data, err := events.AppendMsgpack(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	made := make([]byte, 32)
	_, _ = rand.Read(made)
	h := nats.Header{HeaderKey: []string{a.key.ID()}, HeaderMAC: []string{base64.RawStdEncoding.EncodeToString(made)}}
	for _, m := range []*nats.Msg{
		{Subject: subject, Data: data},
		{Subject: subject, Data: data, Header: h},
		{Subject: subject, Data: data[:len(data)/2], Header: h},
	} {
		if _, err := a.enemy.PublishMsg(a.ctx, m); err != nil {
			t.Fatalf("the enemy's publish on %s: %v", subject, err)
		}
	}
}

// purge purges subject of stream, as the enemy.
func (a *arena) purge(t *testing.T, stream, subject string) {
	t.Helper()
	s, err := a.enemy.Stream(a.ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	var opts []jetstream.StreamPurgeOpt
	if subject != "" {
		opts = append(opts, jetstream.WithPurgeSubject(subject))
	}
	if err := s.Purge(a.ctx, opts...); err != nil {
		t.Fatalf("the enemy's purge of %s %s: %v", stream, subject, err)
	}
}

// filed fails the test for each row of rows the site did not file
// exactly want times.
func (a *arena) filed(t *testing.T, rows []int, want int) {
	t.Helper()
	for _, i := range rows {
		if n := a.site.count(email(i)); n != want {
			t.Errorf("row %d filed %d times on the site; want %d", i, n, want)
		}
	}
}

func span(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// The probe's attack: every row's result and mark forged "committed".
// Workers file every row all the same, and the run waits for their
// results: while row 10 is held at its submit, the run has not ended.
func (a *arena) forgedResults(t *testing.T) {
	r := a.run(t, "run_forged", 10)
	session, settled, err := r.Start(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := r.Plan
	for _, row := range p.Rows {
		a.forge(t, events.ReplaySubject(p.RunID, row.N, replay.EvResult), &replay.ResultEvent{Session: session,
			Row: replay.RowResult{N: row.N, Outcome: replay.OutcomeCommitted, Step: -1, Reason: "forged"}})
		a.forge(t, events.ReplaySubject(p.RunID, row.N, replay.EvCommitted), &replay.RowMark{Row: row.N, Key: row.Key, SkillID: p.SkillID})
	}
	a.forge(t, events.ReplaySubject(p.RunID, 0, replay.EvDryRun), &replay.DryRunPassed{SkillID: p.SkillID, SkillDigest: "an untried version"})
	untried := &replay.Plan{SkillID: p.SkillID, Digest: "an untried version"}
	if passed, err := (&Run{JS: a.js, Key: a.key, Plan: untried}).PassedDryRun(a.ctx); err != nil || passed {
		t.Errorf("a forged dry run reads as passed: %v, %v", passed, err)
	}

	// Two tabs: a busy hub may hand row 10 out before rows 1-9 (a grant
	// that timed out puts a row back on the queue), and one tab held at
	// row 10 would then file nothing else.
	held, release := a.site.hold(10)
	worked, _ := a.worker(t, a.key, "w", tab{a.site}, tab{a.site})
	a.await(t, held, worked)
	progress := make(chan int, 32)
	r.Progress = func(done, failed, skipped, unknown int) { progress <- done + failed + skipped + unknown }
	type waited struct {
		res *replay.Result
		err error
	}
	out := make(chan waited, 1)
	go func() { res, err := r.Wait(a.ctx, session, settled); out <- waited{res, err} }()
	// The forged lines come first on the stream, rows 1-9's genuine ones
	// after them: once the run counts 9 results, whatever their outcome
	// (the end checks those), it has read past every forgery.
	for results := 0; results < 9; {
		select {
		case results = <-progress:
		case w := <-out:
			t.Fatalf("the run ended with row 10 not filed: %+v, %v", w.res, w.err)
		case <-a.ctx.Done():
			t.Fatal("the run did not count rows 1-9's results")
		}
	}
	select {
	case w := <-out:
		t.Fatalf("the run ended with row 10 not filed: %+v, %v", w.res, w.err)
	default:
	}
	close(release)
	w := <-out
	if w.err != nil {
		t.Fatal(w.err)
	}
	a.filed(t, span(1, 10), 1)
	for _, rr := range w.res.Rows {
		if rr.Outcome != replay.OutcomeCommitted || rr.Reason != "" {
			t.Errorf("row %d is %+v; want committed by its worker", rr.N, rr)
		}
	}
}

// The enemy purges the run's queue while a worker files row 1: row 1 is
// committed by its worker, the rest are reported not run.
func (a *arena) purgedRows(t *testing.T) {
	r := a.run(t, "run_purged", 10)
	held, release := a.site.hold(1)
	worked, _ := a.worker(t, a.key, "w", tab{a.site})
	session, settled, err := r.Start(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	a.await(t, held, worked)
	a.purge(t, StreamRows, rowsPrefix+r.Plan.RunID)
	close(release)
	res, err := r.Wait(a.ctx, session, settled)
	if err != nil {
		t.Fatal(err)
	}
	for _, rr := range res.Rows {
		want := replay.OutcomeFailed
		if rr.N == 1 {
			want = replay.OutcomeCommitted
		}
		if rr.Outcome != want || want == replay.OutcomeFailed && !strings.Contains(rr.Reason, "not run") {
			t.Errorf("row %d is %+v; want %s", rr.N, rr, want)
		}
	}
	a.filed(t, span(1, 1), 1)
	a.filed(t, span(2, 10), 0)
}

// The enemy purges the queue while a worker holds row 1, and the worker
// dies: row 1 may have been filed, and is reported unknown.
func (a *arena) purgedRowWorkerDied(t *testing.T) {
	r := a.run(t, "run_died", 3)
	held, _ := a.site.hold(1)
	worked, stop := a.worker(t, a.key, "w", tab{a.site})
	session, settled, err := r.Start(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	a.await(t, held, worked)
	a.purge(t, StreamRows, rowsPrefix+r.Plan.RunID)
	stop()
	res, err := r.Wait(a.ctx, session, settled)
	if err != nil {
		t.Fatal(err)
	}
	if rr := res.Rows[0]; rr.Outcome != replay.OutcomeUnknown {
		t.Errorf("row 1, its worker gone and its message purged, is %+v; want unknown", rr)
	}
	for _, rr := range res.Rows[1:] {
		if rr.Outcome != replay.OutcomeFailed {
			t.Errorf("row %d, never taken, is %+v; want failed (not run)", rr.N, rr)
		}
	}
}

// The probe's second attack: the claims bucket purged, then the run again.
// The coordinator's ledger keeps what its runs filed: a resume after the
// rows' marks and results are deleted too, and a new run after the whole
// REPLAY stream is purged, file nothing again.
func (a *arena) purgedClaims(t *testing.T) {
	a.worker(t, a.key, "w", tab{a.site})
	first := a.run(t, "run_first", 10)
	if got := count(runOnHub(t, a.ctx, first)); got[replay.OutcomeCommitted] != 10 {
		t.Fatalf("the first run: %v", got)
	}
	a.purge(t, "KV_"+BucketClaims, "")
	for i := 1; i <= 10; i++ {
		a.purge(t, events.StreamReplay, fmt.Sprintf("run.%s.row.%d.>", first.Plan.RunID, i))
	}
	resumed := a.run(t, "run_first", 10)
	resumed.Resume = true
	if got := count(runOnHub(t, a.ctx, resumed)); got[replay.OutcomeCommitted] != 10 {
		t.Errorf("the resume, its rows' marks and results deleted: %v; want 10 committed from the ledger", got)
	}
	a.purge(t, "KV_"+BucketClaims, "")
	a.purge(t, events.StreamReplay, "")
	again := a.run(t, "run_again", 10)
	res := runOnHub(t, a.ctx, again)
	if got := count(res); got[replay.OutcomeSkipped] != 10 {
		t.Errorf("a new run of the same rows: %v; want 10 skipped", got)
	}
	if rr := res.Rows[0]; !strings.Contains(rr.Reason, "already filed by run run_first") {
		t.Errorf("row 1 of the new run is %+v; want skipped as run_first's", rr)
	}
	a.filed(t, span(1, 10), 1)
}

// The enemy copies row 1 off the queue as it is put there, and once row
// 1 is filed deletes its claim and marks and queues the copy again: the
// coordinator has its result, and nobody files it again.
func (a *arena) copiedRow(t *testing.T) {
	r := a.run(t, "run_copied", 10)
	nc := a.enemy.Conn()
	sub, err := nc.SubscribeSync(rowsPrefix + r.Plan.RunID)
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	held, release := a.site.hold(10)
	progress := make(chan int, 32)
	r.Progress = func(done, failed, skipped, unknown int) { progress <- done + failed + skipped + unknown }
	worked, _ := a.worker(t, a.key, "w", tab{a.site}, tab{a.site})
	session, settled, err := r.Start(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	copied, err := sub.NextMsg(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var it Item
	if err := events.Decode(copied.Data, &it); err != nil || it.Row != 1 {
		t.Fatalf("the first row queued is %+v, %v; want row 1", it, err)
	}
	type waited struct {
		res *replay.Result
		err error
	}
	out := make(chan waited, 1)
	go func() { res, err := r.Wait(a.ctx, session, settled); out <- waited{res, err} }()
	a.await(t, held, worked)
	for results := 0; results < 9; {
		select {
		case results = <-progress:
		case <-a.ctx.Done():
			t.Fatal("the run did not count rows 1-9's results")
		}
	}
	a.purge(t, "KV_"+BucketClaims, "")
	a.purge(t, events.StreamReplay, fmt.Sprintf("run.%s.row.1.>", r.Plan.RunID))
	copied.Header.Del(jetstream.MsgIDHeader) // else the hub drops it as a duplicate
	if _, err := a.enemy.PublishMsg(a.ctx, &nats.Msg{Subject: copied.Subject, Data: copied.Data, Header: copied.Header}); err != nil {
		t.Fatal(err)
	}
	// The free tab takes the copy, and the coordinator tells it the row
	// is done: only row 10's message is left.
	a.until(t, "copy of row 1 dropped", func() bool { return a.queued(t, r.Plan.RunID) == 1 })
	close(release)
	w := <-out
	if w.err != nil {
		t.Fatal(w.err)
	}
	if got := count(w.res); got[replay.OutcomeCommitted] != 10 {
		t.Errorf("outcomes %v; want 10 committed", got)
	}
	a.filed(t, span(1, 10), 1)
}

// A worker holding another hub key takes one row, gives it back, and
// stops, saying which key to copy; the run's worker files every row.
func (a *arena) wrongKey(t *testing.T) {
	other, err := LoadKey(filepath.Join(t.TempDir(), "other.key"), true)
	if err != nil {
		t.Fatal(err)
	}
	r := a.run(t, "run_keyed", 10)
	session, settled, err := r.Start(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := a.js.Consumer(a.ctx, StreamRows, Consumer)
	if err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(a.ctx)
	if err != nil {
		t.Fatal(err)
	}
	delivered := info.Delivered.Consumer
	wrong := newSite()
	done, _ := a.worker(t, other, "wrong", tab{wrong})
	var werr error
	select {
	case werr = <-done:
	case <-a.ctx.Done():
		t.Fatal("the worker with the wrong key did not stop")
	}
	var ke *KeyError
	if !errors.As(werr, &ke) || ke.Theirs != a.key.ID() || ke.Ours != other.ID() || !strings.Contains(werr.Error(), "copy the hub key") {
		t.Fatalf("the worker with the wrong key stopped with %v; want a *KeyError naming both keys and saying to copy the run's", werr)
	}
	if wrong.steps != 0 {
		t.Errorf("the worker with the wrong key ran %d steps", wrong.steps)
	}
	if info, err = cons.Info(a.ctx); err != nil {
		t.Fatal(err)
	}
	if n := info.Delivered.Consumer - delivered; n != 1 || a.queued(t, r.Plan.RunID) != 10 {
		t.Errorf("the worker with the wrong key was handed %d rows, and %d of 10 are queued; want 1, given back",
			n, a.queued(t, r.Plan.RunID))
	}
	a.worker(t, a.key, "w", tab{a.site})
	res, err := r.Wait(a.ctx, session, settled)
	if err != nil {
		t.Fatal(err)
	}
	if got := count(res); got[replay.OutcomeCommitted] != 10 {
		t.Errorf("outcomes %v; want 10 committed", got)
	}
	a.filed(t, span(1, 10), 1)
}

// The hub's password is never taken from a command line; from a file
// only its owner reads, or the environment, it signs in.
func (a *arena) argvPassword(t *testing.T) {
	url := a.hub.URL()
	for _, argv := range []string{
		strings.ReplaceAll(url, "nats://", "nats://reprise:"+hubPassword+"@"),
		strings.ReplaceAll(url, "nats://", "nats://"+hubPassword+"@"),  // a token
		strings.ReplaceAll(url, "nats://", "reprise:"+hubPassword+"@"), // no scheme
	} {
		err := CheckArgv(argv)
		var ue *URLError
		if !errors.Is(err, ErrCredentialsInArgv) || !errors.As(err, &ue) || !strings.Contains(err.Error(), CredentialsEnv) {
			t.Errorf("CheckArgv(a URL with credentials) = %v; want a *URLError of ErrCredentialsInArgv naming %s", err, CredentialsEnv)
		}
		if err != nil && strings.Contains(err.Error(), hubPassword) {
			t.Errorf("CheckArgv's error shows the password: %v", err)
		}
	}
	if err := CheckArgv(url); err != nil {
		t.Errorf("CheckArgv(%q) = %v; want nil", url, err)
	}
	file := filepath.Join(t.TempDir(), "hub.credentials")
	if err := os.WriteFile(file, []byte("reprise:"+hubPassword+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cred Credentials
		want string // in the error; "" to connect
	}{
		{Credentials{File: file}, ""},
		{Credentials{Env: "reprise:" + hubPassword}, ""},
		{Credentials{Env: "reprise:not-the-password"}, "Authorization"},
		{Credentials{}, "Authorization"},
	} {
		nc, _, err := Connect(url, "t", c.cred)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Connect with %+v: %v", c.cred.File, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("Connect with wrong credentials: %v; want an error with %q", err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), hubPassword) {
			t.Errorf("Connect's error shows the password: %v", err)
		}
		if nc != nil {
			nc.Close()
		}
	}
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Connect(url, "t", Credentials{File: file}); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("Connect with a credentials file others may read: %v; want a refusal saying chmod 600", err)
	}
}

package events

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

func TestValidToken(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"rec_6f1c2a9e-4b3d-4c8e-9f70-2d5a1b8c3e47", true},
		{"m_test", true},
		{"run-1_A", true},
		{"réc_ü", true},
		{strings.Repeat("a", 128), true},
		{strings.Repeat("a", 129), false},
		{"", false},
		{"rec.1", false},
		{".", false},
		{"rec_*", false},
		{"*", false},
		{">", false},
		{"rec_>", false},
		{"rec 1", false},
		{"rec\t1", false},
		{"rec\r1", false},
		{"rec\n1", false},
		{"rec\x001", false},
	}
	for _, tt := range tests {
		if got := ValidToken(tt.in); got != tt.want {
			t.Errorf("ValidToken(%q) = %v; want %v", tt.in, got, tt.want)
		}
	}
}

func TestSubjectNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{CaptureSubject("rec_1"), "capture.rec_1"},
		{RecordingSubject("rec_1", RecStarted), "rec.rec_1.started"},
		{RecordingSubject("rec_1", RecStep), "rec.rec_1.step"},
		{RecordingSubject("rec_1", RecStopped), "rec.rec_1.stopped"},
		{RecordingSubject("rec_1", RecReviewed), "rec.rec_1.reviewed"},
		{RecordingSubject("rec_1", RecEvicted), "rec.rec_1.evicted"},
		{LiveSubject("rec_1"), "rec.rec_1.live"},
		{ReplaySubject("run_7", 2, "committed"), "run.run_7.row.2.committed"},
		{AuditSubject("consent"), "audit.consent"},
		{OpsSubject("m_test"), "shim.m_test.ops"},
		{AskSubject("run_7"), "local.ask.run_7"},
		{AskQuestionSubject("run_7", "0a1b"), "local.ask.run_7.q.0a1b"},
		{StepMsgID("rec_1", 12), "rec_1:12"},
		{StepMsgID("rec_1", 0), "rec_1:0"},
		{StepMsgID("rec_1", math.MaxUint64), "rec_1:18446744073709551615"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got subject %q; want %q", tt.got, tt.want)
		}
	}
	if StepMsgID("rec_1", 12) == StepMsgID("rec_11", 2) {
		t.Errorf("StepMsgID(rec_1, 12) == StepMsgID(rec_11, 2); want distinct ids")
	}
}

// TestSubjectsLandInTheirStreams publishes on every subject helper through a
// real server and checks which stream, if any, stores it. The co-pilot's
// live subject must stay out of RECORDINGS: it is core NATS, never acked.
func TestSubjectsLandInTheirStreams(t *testing.T) {
	nc, js := ensured(t)
	ctx := testContext(t)
	const rec = "r"
	stored := []struct{ subject, stream string }{
		{CaptureSubject(rec), StreamCapture},
		{RecordingSubject(rec, RecStarted), StreamRecordings},
		{RecordingSubject(rec, RecStep), StreamRecordings},
		{RecordingSubject(rec, RecStopped), StreamRecordings},
		{RecordingSubject(rec, RecReviewed), StreamRecordings},
		{RecordingSubject(rec, RecEvicted), StreamRecordings},
		{ReplaySubject("run_1", 1, "planned"), StreamReplay},
		{AuditSubject("consent"), StreamAudit},
	}

	sub, err := nc.SubscribeSync(LiveSubject(rec))
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Publish(LiveSubject(rec), []byte("step")); err != nil {
		t.Fatal(err)
	}
	if _, err := sub.NextMsg(2 * time.Second); err != nil {
		t.Fatalf("core subscriber on %s: %v; want the live step", LiveSubject(rec), err)
	}
	// Unsubscribe, so the JetStream publish below finds no responder at all
	// rather than a subscriber that never acks.
	if err := sub.Unsubscribe(); err != nil {
		t.Fatal(err)
	}
	if n := streamMsgs(t, js, StreamRecordings); n != 0 {
		t.Fatalf("RECORDINGS holds %d messages after a publish on %s; want 0", n, LiveSubject(rec))
	}
	if _, err := js.Publish(ctx, LiveSubject(rec), []byte("step")); !errors.Is(err, jetstream.ErrNoStreamResponse) {
		t.Errorf("js.Publish(%s) = %v; want ErrNoStreamResponse (no stream stores it)", LiveSubject(rec), err)
	}

	for _, s := range stored {
		ack, err := js.Publish(ctx, s.subject, []byte("x"))
		if err != nil {
			t.Errorf("js.Publish(%s) = %v; want it stored in %s", s.subject, err, s.stream)
			continue
		}
		if ack.Stream != s.stream {
			t.Errorf("js.Publish(%s) stored in %s; want %s", s.subject, ack.Stream, s.stream)
		}
	}
	if n := streamMsgs(t, js, StreamRecordings); n != 5 {
		t.Errorf("RECORDINGS holds %d messages; want the 5 lifecycle and step events, not the live one", n)
	}
}

func streamMsgs(t *testing.T, js jetstream.JetStream, name string) uint64 {
	t.Helper()
	ctx := testContext(t)
	st, err := js.Stream(ctx, name)
	if err != nil {
		t.Fatalf("js.Stream(%s): %v", name, err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatalf("stream %s info: %v", name, err)
	}
	return info.State.Msgs
}

func TestStepSeq(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want uint64
		ok   bool
	}{
		{StepMsgID("rec_a", 7), 7, true},
		{"rec_a:12:review2", 12, true},
		{"rec_b:7", 0, false},
		{"rec_a:", 0, false},
		{"rec_a:x", 0, false},
		{"", 0, false},
		{"rec_a:-1", 0, false},
	} {
		got, err := StepSeq("rec_a", tc.id)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("StepSeq(rec_a, %q) = %d, %v; want %d, ok %v", tc.id, got, err, tc.want, tc.ok)
		}
	}
}

// TestBuiltNames holds the subjects and names built here to the strings
// other packages, a hub and nats-server expect.
func TestBuiltNames(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{ExtensionAll, "ingest.chrome.>"},
		{ExtensionInboxAll, "_INBOX_ext.>"},
		{LocalAll, "local.>"},
		{ServiceDiscoveryNamed("INFO"), "$SRV.INFO.>"},
		{HubRowsSubject("r1"), "hub.rows.r1"},
		{HubGrantSubject("r1"), "hub.grant.r1"},
		{HubAskSubject("r1"), "hub.ask.r1"},
		{HubNoticeSubject("r1"), "hub.notice.r1"},
		{JSStreamInfo(StreamAudit), "$JS.API.STREAM.INFO.AUDIT"},
		{JSConsumerCreate(StreamReplay), "$JS.API.CONSUMER.CREATE.REPLAY.>"},
		{JSConsumerNext(StreamAudit, Wildcard), "$JS.API.CONSUMER.MSG.NEXT.AUDIT.*"},
		{JSConsumerDelete(StreamReplay, "c"), "$JS.API.CONSUMER.DELETE.REPLAY.c"},
		{JSDirectGet(Rest), "$JS.API.DIRECT.GET.>"},
		{BucketOpsReplies, "OPS_REPLIES"},
		{BucketConsentChoices, "CONSENT_CHOICES"},
		{StreamHubRows, "HUB_ROWS"},
		{BucketHubClaims, "HUB_CLAIMS"},
		{BucketHubSkills, "HUB_SKILLS"},
		{ObjectsHubFiles, "HUB_FILES"},
	} {
		if c.got != c.want {
			t.Errorf("built %q; want %q", c.got, c.want)
		}
	}
}

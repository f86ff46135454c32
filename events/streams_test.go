package events

import (
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// wantStores fails unless every stream, bucket and object store of SPEC
// section 3 exists with its current definition.
func wantStores(t *testing.T, js jetstream.JetStream) {
	t.Helper()
	ctx := testContext(t)
	for _, want := range StreamConfigs() {
		st, err := js.Stream(ctx, want.Name)
		if err != nil {
			t.Errorf("stream %s: %v; want it to exist", want.Name, err)
			continue
		}
		info, err := st.Info(ctx)
		if err != nil {
			t.Fatalf("stream %s info: %v", want.Name, err)
		}
		got := info.Config
		if got.Description != want.Description || !slices.Equal(got.Subjects, want.Subjects) ||
			got.Retention != want.Retention || got.Storage != want.Storage ||
			got.Duplicates != want.Duplicates || got.DenyDelete != want.DenyDelete || got.DenyPurge != want.DenyPurge {
			t.Errorf("stream %s config = %+v; want %+v", want.Name, got, want)
		}
	}
	skills, err := js.KeyValue(ctx, BucketSkills)
	if err != nil {
		t.Fatalf("bucket %s: %v; want it to exist", BucketSkills, err)
	}
	if st, err := skills.Status(ctx); err != nil {
		t.Errorf("bucket %s status: %v", BucketSkills, err)
	} else if st.History() != 64 {
		t.Errorf("bucket %s history = %d; want 64", BucketSkills, st.History())
	}
	consent, err := js.KeyValue(ctx, BucketConsent)
	if err != nil {
		t.Fatalf("bucket %s: %v; want it to exist", BucketConsent, err)
	}
	if st, err := consent.Status(ctx); err != nil {
		t.Errorf("bucket %s status: %v", BucketConsent, err)
	} else if st.TTL() != ConsentTTL {
		t.Errorf("bucket %s TTL = %v; want %v", BucketConsent, st.TTL(), ConsentTTL)
	}
	frames, err := js.ObjectStore(ctx, ObjectFrames)
	if err != nil {
		t.Fatalf("object store %s: %v; want it to exist", ObjectFrames, err)
	}
	if st, err := frames.Status(ctx); err != nil {
		t.Errorf("object store %s status: %v", ObjectFrames, err)
	} else if st.Storage() != jetstream.FileStorage {
		t.Errorf("object store %s storage = %v; want file", ObjectFrames, st.Storage())
	}
}

func TestEnsureStoresTwice(t *testing.T) {
	_, js := ensured(t)
	wantStores(t, js)
	if err := EnsureStores(testContext(t), js); err != nil {
		t.Fatalf("second EnsureStores = %v; want nil", err)
	}
	wantStores(t, js)
}

// TestEnsureStoresUpdatesOlderDefinition starts from what an older build
// created and checks EnsureStores brings it up to date, keeping its data.
func TestEnsureStoresUpdatesOlderDefinition(t *testing.T) {
	_, js := startJetStream(t)
	ctx := testContext(t)
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name:        StreamRecordings,
		Description: "recordings (old build)",
		Subjects:    []string{"rec.*.started", "rec.*.step"},
		Storage:     jetstream.FileStorage,
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: BucketSkills, History: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, RecordingSubject("rec_old", RecStep), []byte("kept")); err != nil {
		t.Fatal(err)
	}

	if err := EnsureStores(ctx, js); err != nil {
		t.Fatalf("EnsureStores over an older definition = %v; want nil", err)
	}
	wantStores(t, js)
	if n := streamMsgs(t, js, StreamRecordings); n != 1 {
		t.Errorf("RECORDINGS holds %d messages after the update; want the 1 published before", n)
	}
	if _, err := js.Publish(ctx, RecordingSubject("rec_old", RecStopped), nil); err != nil {
		t.Errorf("publish on a subject the update added: %v; want it stored", err)
	}
}

// TestEnsureStoresReportsConflict checks that a store EnsureStores cannot
// bring up to date is reported by name, not skipped.
func TestEnsureStoresReportsConflict(t *testing.T) {
	_, js := startJetStream(t)
	ctx := testContext(t)
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{
		Name:     StreamCapture,
		Subjects: []string{"capture.*"},
		Storage:  jetstream.MemoryStorage, // storage cannot change in place
	}); err != nil {
		t.Fatal(err)
	}
	err := EnsureStores(ctx, js)
	if err == nil || !strings.Contains(err.Error(), "ensure stream "+StreamCapture) {
		t.Errorf("EnsureStores over a memory CAPTURE = %v; want an error naming stream %s", err, StreamCapture)
	}
}

package events

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Names of the streams, buckets and object stores of SPEC section 3.
const (
	StreamCapture    = "CAPTURE"
	StreamRecordings = "RECORDINGS"
	StreamReplay     = "REPLAY"
	StreamAudit      = "AUDIT"
	BucketSkills     = "SKILLS"
	BucketConsent    = "CONSENT"
	ObjectFrames     = "FRAMES"
)

// Names of the buckets beside SPEC section 3's that the shim keeps.
const (
	// BucketOpsReplies keeps each wire op request id's first answer, so a
	// repeated id gets it again (package ops).
	BucketOpsReplies = "OPS_REPLIES"
	// BucketConsentChoices holds the person's remembered consent answers,
	// one key per kind of recording (package consent).
	BucketConsentChoices = "CONSENT_CHOICES"
)

// Names of what reprise keeps on a hub, beside its REPLAY stream (package
// replay/hub): rows filed by workers on many machines.
const (
	// StreamHubRows is the work queue of rows to file, on
	// HubRowsSubject(run), one message per row.
	StreamHubRows = "HUB_ROWS"
	// BucketHubClaims maps <skill>.<dedupe key> to the run and row filing it.
	BucketHubClaims = "HUB_CLAIMS"
	// BucketHubSkills maps a run to its skill document, sealed.
	BucketHubSkills = "HUB_SKILLS"
	// ObjectsHubFiles holds each row's upload files, sealed, under
	// <run>/<row>, while its run lasts.
	ObjectsHubFiles = "HUB_FILES"
	// ConsumerHubWorkers is the one pull consumer of StreamHubRows every
	// worker shares.
	ConsumerHubWorkers = "workers"
)

// DedupeWindow is how long JetStream remembers a Nats-Msg-Id. It must cover
// the longest a publisher may retry one message: a daemon restart included.
const DedupeWindow = 10 * time.Minute

// ConsentTTL bounds how long a single-use consent marker is kept; it outlives
// the longest token a shim issues.
const ConsentTTL = time.Hour

// StreamConfigs returns the definitions of the streams the shim owns.
func StreamConfigs() []jetstream.StreamConfig {
	recSubjects := make([]string, len(recordingEvents))
	for i, e := range recordingEvents {
		recSubjects[i] = RecordingsFilter(e)
	}
	return []jetstream.StreamConfig{
		{
			Name:        StreamCapture,
			Description: "raw steps from capture sources, sealed; each leaves once the redact consumer acks it",
			Subjects:    []string{CaptureSubject(Wildcard)},
			Retention:   jetstream.WorkQueuePolicy,
			Storage:     jetstream.FileStorage,
			Duplicates:  DedupeWindow,
		},
		{
			Name:        StreamRecordings,
			Description: "redacted steps and lifecycle events of recordings, sealed",
			Subjects:    recSubjects,
			Retention:   jetstream.LimitsPolicy,
			Storage:     jetstream.FileStorage,
			Duplicates:  DedupeWindow,
		},
		{
			Name:        StreamReplay,
			Description: "replay runs: planned, started, step, committed, failed, unknown per row",
			Subjects:    []string{ReplayAll},
			Retention:   jetstream.LimitsPolicy,
			Storage:     jetstream.FileStorage,
			Duplicates:  DedupeWindow,
		},
		{
			Name:        StreamAudit,
			Description: "content-free audit entries, HMAC-chained; never purged by eviction",
			Subjects:    []string{AuditSubject(Rest)},
			Retention:   jetstream.LimitsPolicy,
			Storage:     jetstream.FileStorage,
			Duplicates:  DedupeWindow,
			DenyDelete:  true,
			DenyPurge:   true,
		},
	}
}

// KeyValueConfigs returns the definitions of the shim's KV buckets.
func KeyValueConfigs() []jetstream.KeyValueConfig {
	return []jetstream.KeyValueConfig{
		{Bucket: BucketSkills, Description: "skill documents, every version kept", History: 64, Storage: jetstream.FileStorage},
		{Bucket: BucketConsent, Description: "single-use markers of consumed consent tokens", TTL: ConsentTTL, Storage: jetstream.FileStorage},
	}
}

// ObjectStoreConfigs returns the definitions of the shim's object stores.
func ObjectStoreConfigs() []jetstream.ObjectStoreConfig {
	return []jetstream.ObjectStoreConfig{
		{Bucket: ObjectFrames, Description: "pre-action frames, sealed; deleted with their recording", Storage: jetstream.FileStorage},
	}
}

// EnsureStores creates every stream, bucket and object store of SPEC section 3,
// or brings an existing one up to its current definition. It is safe to call
// on every start.
func EnsureStores(ctx context.Context, js jetstream.JetStream) error {
	for _, cfg := range StreamConfigs() {
		if _, err := js.CreateOrUpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("ensure stream %s: %w", cfg.Name, err)
		}
	}
	for _, cfg := range KeyValueConfigs() {
		if _, err := js.CreateOrUpdateKeyValue(ctx, cfg); err != nil {
			return fmt.Errorf("ensure bucket %s: %w", cfg.Bucket, err)
		}
	}
	for _, cfg := range ObjectStoreConfigs() {
		if _, err := js.CreateOrUpdateObjectStore(ctx, cfg); err != nil {
			return fmt.Errorf("ensure object store %s: %w", cfg.Bucket, err)
		}
	}
	return nil
}

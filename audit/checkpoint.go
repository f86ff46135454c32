package audit

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"errors"
)

// ErrCheckpointForged is returned by SealedCheckpoint.Open when the tag does
// not verify under the audit key: someone wrote the checkpoint without it,
// such as a MAC copied from the stream to hide a cut-off tail.
var ErrCheckpointForged = errors.New("the audit checkpoint's tag does not verify under the audit key")

// SealedCheckpoint is a Checkpoint as kept outside the stream: its seq and
// MAC tagged under the audit key. The MAC alone can be copied from the
// stream by anyone who can read it; the tag cannot be made without the key.
type SealedCheckpoint struct {
	Seq uint64 `json:"seq"`
	MAC []byte `json:"mac,omitempty"`
	Tag []byte `json:"tag,omitempty"`
}

// Seal tags cp under key.
func Seal(key []byte, cp Checkpoint) SealedCheckpoint {
	return SealedCheckpoint{Seq: cp.Seq, MAC: cp.MAC, Tag: checkpointTag(key, cp)}
}

// Open returns the checkpoint when its tag verifies under key.
func (s SealedCheckpoint) Open(key []byte) (Checkpoint, error) {
	cp := Checkpoint{Seq: s.Seq, MAC: s.MAC}
	if !hmac.Equal(s.Tag, checkpointTag(key, cp)) {
		return Checkpoint{}, ErrCheckpointForged
	}
	return cp, nil
}

func checkpointTag(key []byte, cp Checkpoint) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("reprise audit checkpoint v1\x00"))
	m.Write(binary.BigEndian.AppendUint64(nil, cp.Seq))
	m.Write(cp.MAC)
	return m.Sum(nil)
}

// Reasons an audit.checkpoint_lost entry gives.
const (
	CheckpointMissing    = "missing"    // none on a log that has entries
	CheckpointForged     = "forged"     // its tag does not verify
	CheckpointUnreadable = "unreadable" // not a checkpoint at all
	// CheckpointRolledBack: the chain ends before the high-water mark kept
	// in the key store: the log (and its checkpoint with it) was replaced
	// by an older copy.
	CheckpointRolledBack = "rolled_back"
	// CheckpointTruncated: the chain ends before the checkpoint, and the
	// high-water mark does not say more.
	CheckpointTruncated = "truncated"
	// HighWaterForged: the high-water mark's tag does not verify.
	HighWaterForged = "high_water_forged"
	// HighWaterUnreadable: the key store's item is not a high-water mark.
	HighWaterUnreadable = "high_water_unreadable"
)

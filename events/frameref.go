package events

import (
	"crypto/rand"
	"encoding/hex"
)

// FrameRefPrefix begins every screenshot_ref a capture source makes. Refs
// are opaque: recordings made before it carry "stub_..." and read the same.
const FrameRefPrefix = "frame_"

// NewFrameRef returns a fresh screenshot_ref: the prefix and 128 random
// bits, naming the frame in the FRAMES store.
func NewFrameRef() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return FrameRefPrefix + hex.EncodeToString(b[:])
}

package api

// RecordingListing is one kept recording, as `reprise recordings list`
// shows it.
type RecordingListing struct {
	RecordingID         string   `json:"recording_id"`
	CreatedAt           float64  `json:"created_at"`
	Mode                string   `json:"mode"`
	InterpretationRoute string   `json:"interpretation_route"`
	Channels            []string `json:"channels"`
	State               string   `json:"state"` // recording, stopped
	StepsStored         uint64   `json:"steps_stored"`
	// LostSteps counts steps captured but never stored: an incomplete
	// recording.
	LostSteps uint64 `json:"lost_steps,omitempty"`
}

// RecordingListReply answers events.LocalRecordingsList: the recordings
// kept, oldest first, never null.
type RecordingListReply struct {
	Recordings []RecordingListing `json:"recordings"`
}

// FrameRequest is the body of events.LocalRecordingsFrame, which answers
// the frame's PNG bytes.
type FrameRequest struct {
	RecordingID string `json:"recording_id"`
	Ref         string `json:"ref"`
}

// RecordingDamage is a recording the store can no longer give back whole,
// and why.
type RecordingDamage struct {
	RecordingID string `json:"recording_id"`
	Problem     string `json:"problem"`
}

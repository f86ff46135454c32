package api

import (
	"fmt"
	"time"
)

// Status is what a running daemon reports about itself, on
// events.LocalStatus.
type Status struct {
	MachineID     string    `json:"machine_id"`
	Version       string    `json:"version"`
	PID           int       `json:"pid"`
	StartedAt     time.Time `json:"started_at"`
	UptimeSeconds float64   `json:"uptime_seconds"`
	ClientURL     string    `json:"client_url"`
	WebSocketURL  string    `json:"websocket_url"`
	Platform      string    `json:"platform"`
	// Keys says where keys live: "keychain", or "file" where no OS keychain is reachable.
	Keys    string         `json:"keys"`
	Streams []StreamStatus `json:"streams"`
	// BrowserConnected says the paired browser extension said hello in
	// the last two minutes: the browser channel can record.
	BrowserConnected bool `json:"browser_connected"`
	// Recording is the recording now running, if one is.
	Recording *RecordingStatus `json:"recording,omitempty"`
	// StoreChecked says the start-up read-back of every recording is
	// done; Damaged are the recordings it could not read back whole.
	StoreChecked bool              `json:"store_checked"`
	Damaged      []RecordingDamage `json:"damaged,omitempty"`
	// FreeBytes is the space free on the store's disk; MinFreeBytes is
	// the floor below which a recording does not start.
	FreeBytes    uint64 `json:"free_bytes"`
	MinFreeBytes uint64 `json:"min_free_bytes"`
}

// StoreState says what the daemon's start-up check of the store found.
func (st Status) StoreState() string {
	switch {
	case !st.StoreChecked:
		return "being checked"
	case len(st.Damaged) > 0:
		return fmt.Sprintf("%d recording(s) damaged: they cannot be used; record those tasks again", len(st.Damaged))
	}
	return "every recording reads back whole"
}

// DiskState says how much room the store has, against the recording floor.
func (st Status) DiskState() string {
	s := fmt.Sprintf("%d MB free", st.FreeBytes>>20)
	if st.FreeBytes < st.MinFreeBytes {
		s += fmt.Sprintf(": under the %d MB a recording needs; recordings will not start until there is room", st.MinFreeBytes>>20)
	}
	return s
}

// RecordingStatus is the running recording, and whether the browser
// extension knows of it: until it does, what the person does in the
// browser is not recorded.
type RecordingStatus struct {
	ID            string `json:"id"`
	BrowserJoined bool   `json:"browser_joined"`
	// Steps were written so far; Lost were dropped or could not be written.
	Steps uint64 `json:"steps"`
	Lost  uint64 `json:"lost,omitempty"`
}

// StreamStatus is one stream's size.
type StreamStatus struct {
	Name     string `json:"name"`
	Messages uint64 `json:"messages"`
	Bytes    uint64 `json:"bytes"`
	// Lost counts messages the store found unreadable on disk and dropped.
	Lost int `json:"lost,omitempty"`
}

// Pairing is what the browser extension connects with, on
// events.LocalPair: the daemon's WebSocket URL and the extension's
// credentials.
type Pairing struct {
	URL      string `json:"url"`
	User     string `json:"user"`
	Password string `json:"password"`
}

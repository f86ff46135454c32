package hub

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// A ledger entry's state: a grant and its release, or the row's outcome
// (replay.Outcome*), which settles it.
const (
	stGranted  = "granted"
	stReleased = "released"
)

// entry is one line of a ledger. It names rows by number and records by
// their dedupe key (an HMAC under the hub's salt): no value.
type entry struct {
	Run     string `json:"run"`
	Row     int    `json:"row"`
	Session int    `json:"session"`
	Key     string `json:"key,omitempty"`
	State   string `json:"state"`
	// Grant names the grant an entry granted or released (hex).
	Grant string `json:"grant,omitempty"`
}

// ledger is the coordinator's own record of one skill's rows on one hub:
// every grant, release and result, appended and synced to the
// coordinator's disk before it is acted on (a grant before the worker
// hears of it). It is what a purge on the hub cannot take away: the hub's
// marks and claims say the same, and can be deleted by anyone who may
// publish there. A line cut short by a crash is skipped on reading: it was
// never acted on.
type ledger struct {
	mu sync.Mutex
	f  *os.File
}

// openLedger opens skillID's ledger for hub key keyID in dir (made, owner
// only, when missing) and returns its entries.
func openLedger(dir, keyID, skillID string) (*ledger, []entry, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, fmt.Errorf("hub ledger: %w", err)
	}
	h := sha256.Sum256([]byte(skillID))
	path := filepath.Join(dir, keyID+"-"+hex.EncodeToString(h[:12])+".jsonl")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("hub ledger: %w", err)
	}
	entries, err := readLedger(f)
	if err == nil {
		err = endLine(f)
	}
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("hub ledger %s: %w", path, err)
	}
	return &ledger{f: f}, entries, nil
}

// readLedger reads every whole entry of r.
func readLedger(r io.Reader) ([]entry, error) {
	var out []entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		var e entry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Run == "" || e.State == "" {
			continue // cut short by a crash: never acted on
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// endLine ends a last line a crash cut short, so that the next entry
// starts a line of its own.
func endLine(f *os.File) error {
	st, err := f.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := f.ReadAt(last, st.Size()-1); err != nil {
		return err
	}
	if last[0] != '\n' {
		_, err = f.Write([]byte{'\n'})
	}
	return err
}

// add appends e and syncs it to disk: once it returns nil, e survives a
// crash of the coordinator's machine.
func (l *ledger) add(e entry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("hub ledger: closed")
	}
	if _, err := l.f.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("hub ledger: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("hub ledger: %w", err)
	}
	return nil
}

// Close closes the ledger; a second Close does nothing.
func (l *ledger) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// history is what a ledger says, for one run: each of its rows' state,
// and which records other runs of the skill filed or began.
type history struct {
	rows map[int]*rowHist
	// filed holds the dedupe keys another run committed, and which run.
	filed map[string]string
	// began holds the dedupe keys another run was granted, or reported
	// unknown, and never settled: they may be filed.
	began map[string]string
}

// rowHist is one row's entries, folded.
type rowHist struct {
	key     string
	session int
	// outcome is the row's last result since its last grant, if any.
	outcome string
	// maybe says the row may be filed: granted, and neither given back
	// nor settled as not filed since; or reported unknown.
	maybe, before bool
	grant         string // the grant outstanding, if any
}

func (r *rowHist) apply(e entry) {
	r.session = e.Session
	if e.Key != "" {
		r.key = e.Key
	}
	switch e.State {
	case stGranted:
		r.before, r.maybe, r.grant, r.outcome = r.maybe, true, e.Grant, ""
	case stReleased:
		if e.Grant == r.grant {
			r.maybe, r.grant = r.before, ""
		}
	default:
		r.outcome, r.grant = e.State, ""
		r.maybe = e.State == "unknown"
	}
}

func readHistory(entries []entry, run string) history {
	h := history{rows: map[int]*rowHist{}, filed: map[string]string{}, began: map[string]string{}}
	type id struct {
		run string
		row int
	}
	others := map[id]*rowHist{}
	var order []id
	for _, e := range entries {
		if e.Run == run {
			if h.rows[e.Row] == nil {
				h.rows[e.Row] = &rowHist{}
			}
			h.rows[e.Row].apply(e)
			continue
		}
		i := id{e.Run, e.Row}
		if others[i] == nil {
			others[i] = &rowHist{}
			order = append(order, i)
		}
		others[i].apply(e)
	}
	for _, i := range order {
		r := others[i]
		switch {
		case r.key == "":
		case r.outcome == "committed":
			h.filed[r.key] = i.run
		case r.maybe:
			if _, ok := h.began[r.key]; !ok {
				h.began[r.key] = i.run
			}
		}
	}
	for key := range h.filed {
		delete(h.began, key)
	}
	return h
}

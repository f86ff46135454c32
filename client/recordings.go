package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// ErrNoRecording is returned by ActiveRecording when none is running.
var ErrNoRecording = errors.New("no recording is running")

// List returns the recordings the daemon keeps, oldest first.
func (c *Client) List(ctx context.Context) ([]api.RecordingListing, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	var reply api.RecordingListReply
	if err := ops.AskJSON(ctx, c.nc, events.LocalRecordingsList, nil, &reply); err != nil {
		return nil, fmt.Errorf("list recordings: %w", err)
	}
	return reply.Recordings, nil
}

// ActiveRecording returns the id of the recording running now (the
// newest, should there be more), or ErrNoRecording.
func (c *Client) ActiveRecording(ctx context.Context) (string, error) {
	l, err := c.List(ctx)
	if err != nil {
		return "", err
	}
	for i := len(l) - 1; i >= 0; i-- {
		if l[i].State == "recording" {
			return l[i].RecordingID, nil
		}
	}
	return "", ErrNoRecording
}

// Fetch returns recording id whole, as RECORDING_FETCH does.
func (c *Client) Fetch(ctx context.Context, id string) (*events.Recording, error) {
	var rec events.Recording
	if err := c.call(ctx, ops.TypeFetch, ops.RecordingRef{RecordingID: id}, &rec, fetchTimeout); err != nil {
		return nil, err
	}
	return &rec, nil
}

// Frame returns the frame ref (a PNG) of recording recID.
func (c *Client) Frame(ctx context.Context, recID, ref string) ([]byte, error) {
	b, err := json.Marshal(api.FrameRequest{RecordingID: recID, Ref: ref})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, frameTimeout)
	defer cancel()
	img, err := ops.Ask(ctx, c.nc, events.LocalRecordingsFrame, b)
	if err != nil {
		return nil, fmt.Errorf("frame %s: %w", ref, err)
	}
	return img, nil
}

// Review applies a review to a stopped recording: steps removed, values
// blanked.
func (c *Client) Review(ctx context.Context, req ops.ReviewRequest) (ops.ReviewApplied, error) {
	var applied ops.ReviewApplied
	err := c.call(ctx, ops.TypeApplyReview, req, &applied, reviewTimeout)
	return applied, err
}

// RequestConsent asks the daemon for a consent token to record; it waits,
// as long as ctx lets it, for the person to answer one of the daemon's
// prompters (Consent lists the open questions).
func (c *Client) RequestConsent(ctx context.Context, req ops.ConsentRequest) (ops.ConsentResult, error) {
	var r ops.ConsentResult
	err := c.call(ctx, ops.TypeRequestConsent, req, &r, 0)
	return r, err
}

// Start starts a recording with the consent token RequestConsent gave.
func (c *Client) Start(ctx context.Context, req ops.StartRequest) (ops.Started, error) {
	var started ops.Started
	err := c.call(ctx, ops.TypeStart, req, &started, 0)
	return started, err
}

// Stop stops recording id and returns its summary.
func (c *Client) Stop(ctx context.Context, id string) (ops.Summary, error) {
	var sum ops.Summary
	err := c.call(ctx, ops.TypeStop, ops.RecordingRef{RecordingID: id}, &sum, stopTimeout)
	return sum, err
}

// Follower is told a recording's steps as Follow sees them.
type Follower struct {
	// Step is called once for each step: the stored ones first, then each
	// as it is recorded, then any the live stream missed.
	Step func(events.Step)
	// Live, if set, is called once the stored steps are told, when the
	// live ones follow.
	Live func()
}

// followPoll is how often Follow asks whether the recording still runs.
const followPoll = time.Second

// Follow tells f each step of recording id as it is recorded, from the
// steps already stored to the live stream, until the recording stops or
// ctx ends; it returns the stopped recording.
func (c *Client) Follow(ctx context.Context, id string, f Follower) (*events.Recording, error) {
	live, err := c.nc.SubscribeSync(events.LiveSubject(id)) // first, so no step falls between
	if err != nil {
		return nil, fmt.Errorf("follow %s live: %w", id, err)
	}
	defer live.Unsubscribe()
	rec, err := c.Fetch(ctx, id)
	if err != nil {
		return nil, err
	}
	told := map[uint64]bool{}
	tell := func(s events.Step) {
		if !told[s.Seq] {
			told[s.Seq] = true
			f.Step(s)
		}
	}
	for _, s := range rec.Steps {
		tell(s)
	}
	if f.Live != nil {
		f.Live()
	}
	checked := time.Now()
	for {
		m, err := live.NextMsg(300 * time.Millisecond)
		switch {
		case err == nil:
			if s, err := ops.DecodeLiveStep(m.Data); err == nil {
				tell(*s)
			}
		case !errors.Is(err, nats.ErrTimeout):
			return nil, fmt.Errorf("follow %s live: %w", id, err)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if time.Since(checked) < followPoll {
			continue
		}
		checked = time.Now()
		l, err := c.List(ctx)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(l, func(x api.RecordingListing) bool { return x.RecordingID == id })
		if i >= 0 && l[i].State == "recording" {
			continue
		}
		// Stopped: what the live stream missed is in the store.
		if rec, err = c.Fetch(ctx, id); err != nil {
			return nil, err
		}
		for _, s := range rec.Steps {
			tell(s)
		}
		return rec, nil
	}
}

// importTimeout is the import service's own bound and a little more.
const importTimeout = 2*time.Minute + 10*time.Second

// Import stores a recording read from another tool's file; it answers
// the stopped recording's summary.
func (c *Client) Import(ctx context.Context, req ops.ImportRequest) (ops.Summary, error) {
	var sum ops.Summary
	err := c.local(ctx, events.LocalRecordingsImport, req, &sum, importTimeout)
	return sum, err
}

// Reviewer is the daemon's recordings as the review page reads and
// reviews them (review.Source).
func (c *Client) Reviewer() Reviewer { return Reviewer{c} }

// Reviewer reads a recording and its frames, and applies a review.
type Reviewer struct{ c *Client }

// Recording is recording recID, in full.
func (r Reviewer) Recording(ctx context.Context, recID string) (*events.Recording, error) {
	return r.c.Fetch(ctx, recID)
}

// Frame is the frame ref of recording recID.
func (r Reviewer) Frame(ctx context.Context, recID, ref string) ([]byte, error) {
	return r.c.Frame(ctx, recID, ref)
}

// Apply removes and redacts steps of recording recID, and says how many
// are kept.
func (r Reviewer) Apply(ctx context.Context, recID string, removed, redacted []uint64) (int, error) {
	applied, err := r.c.Review(ctx, ops.ReviewRequest{RecordingID: recID, RemovedStepSeqs: removed, RedactedStepSeqs: redacted})
	return applied.StepCount, err
}

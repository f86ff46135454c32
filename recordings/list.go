package recordings

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/reprise-dev/reprise/api"
	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/ops"
)

// List returns the recordings kept on this shim, oldest first.
func (r *Reader) List(ctx context.Context) ([]api.RecordingListing, error) {
	var out []api.RecordingListing
	index := map[string]int{}
	evicted := map[string]bool{}
	err := r.readAll(ctx, []string{events.RecordingsFilter(events.RecStarted), events.RecordingsFilter(events.RecStopped), events.RecordingsFilter(events.RecEvicted)}, func(m jetstream.Msg) error {
		parts := strings.Split(m.Subject(), ".")
		id, event := parts[1], parts[2]
		switch event {
		case events.RecStarted:
			var s events.RecordingStarted
			if err := events.Decode(m.Data(), &s); err != nil {
				return err
			}
			index[id] = len(out)
			out = append(out, api.RecordingListing{RecordingID: id, CreatedAt: s.CreatedAt, Mode: s.Mode, InterpretationRoute: s.InterpretationRoute, Channels: s.Channels, State: "recording"})
		case events.RecStopped:
			var st events.RecordingStopped
			if err := events.Decode(m.Data(), &st); err != nil {
				return err
			}
			if i, ok := index[id]; ok {
				out[i].State, out[i].LostSteps = "stopped", st.Dropped
			}
		case events.RecEvicted:
			evicted[id] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	stream, err := r.js.Stream(ctx, events.StreamRecordings)
	if err != nil {
		return nil, err
	}
	info, err := stream.Info(ctx, jetstream.WithSubjectFilter(events.RecordingsFilter(events.RecStep)))
	if err != nil {
		return nil, err
	}
	kept := out[:0]
	for _, l := range out {
		if evicted[l.RecordingID] {
			continue
		}
		l.StepsStored = info.State.Subjects[events.RecordingSubject(l.RecordingID, events.RecStep)]
		kept = append(kept, l)
	}
	return kept, nil
}

// ServiceName is the recordings service's name in `nats micro ls`.
const ServiceName = "reprise-recordings"

// Serve answers events.LocalRecordingsList and events.LocalRecordingsFrame
// for the local CLI until nc closes; the platform's account cannot reach
// them.
func (r *Reader) Serve(nc *nats.Conn) (*ops.Local, error) {
	return ops.ServeLocal(nc, ops.LocalService{
		Name: ServiceName, Description: "lists the recordings kept, and hands out their frames, for the local CLI",
		Endpoints: []ops.Endpoint{
			{Name: "list", Subject: events.LocalRecordingsList, Handle: r.serveList},
			{Name: "frame", Subject: events.LocalRecordingsFrame, Handle: r.serveFrame},
		},
		Logger: r.log,
	})
}

// serveList answers events.LocalRecordingsList (api.RecordingListReply). A failure is
// logged and refused INTERNAL, pointing to the daemon's log.
func (r *Reader) serveList(ctx context.Context, body []byte) ([]byte, error) {
	if err := ops.DecodeLocal("recordings list", body, &struct{}{}); err != nil {
		return nil, err
	}
	list, err := r.List(ctx)
	if err != nil {
		return nil, fmt.Errorf("list recordings: %w", err)
	}
	return json.Marshal(api.RecordingListReply{Recordings: nonNilList(list)})
}

func nonNilList(l []api.RecordingListing) []api.RecordingListing {
	if l == nil {
		return []api.RecordingListing{}
	}
	return l
}

// Lost says how many steps recording recID lost when it was made
// (captured, never stored), read from its stop alone: 0 while it records.
func (r *Reader) Lost(ctx context.Context, recID string) (uint64, error) {
	if !events.ValidRecordingID(recID) {
		return 0, NotFound(recID)
	}
	var lost uint64
	err := r.readAll(ctx, []string{events.RecordingSubject(recID, events.RecStopped)}, func(m jetstream.Msg) error {
		var st events.RecordingStopped
		if err := events.Decode(m.Data(), &st); err != nil {
			return err
		}
		lost = st.Dropped
		return nil
	})
	return lost, err
}

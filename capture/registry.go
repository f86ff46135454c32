package capture

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// ErrChannelUnavailable is wrapped by Registry.Select's errors.
var ErrChannelUnavailable = errors.New("capture: channel unavailable")

// NoSourceReason is an UnavailableError's reason when no registered source
// provides the channel at all.
const NoSourceReason = "no source for this channel in this build"

// UnavailableError names the channel that cannot be served and why
// (errors.Is ErrChannelUnavailable). The ops handler answers it with
// RECORDING_CHANNEL_UNAVAILABLE.
type UnavailableError struct {
	Channel string // the channel as asked for; may be a name this build does not know
	Reason  string // the provider's own reason, or NoSourceReason
}

// Error says which channel cannot be served and why; the channel is quoted
// and cut short, as it may be anything a request carried.
func (e *UnavailableError) Error() string {
	return fmt.Sprintf("capture: channel %s unavailable: %s", quoteShort(e.Channel), e.Reason)
}

// Unwrap returns ErrChannelUnavailable.
func (e *UnavailableError) Unwrap() error { return ErrChannelUnavailable }

// Availability is one source's probe result.
type Availability struct {
	Source   string
	Channels []string
	OK       bool
	Reason   string
}

// Registry holds the sources this build and machine have. The zero value is
// an empty registry ready to use; it is safe for concurrent use.
type Registry struct {
	mu      sync.Mutex
	sources []Source
}

// NewRegistry returns a registry holding sources, in that order.
func NewRegistry(sources ...Source) *Registry {
	r := &Registry{}
	for _, s := range sources {
		r.Register(s)
	}
	return r
}

// Register adds s after the sources already registered; earlier sources are
// preferred when two provide the same channel. Registering nil panics: it is
// a bug in the caller, not a state of the machine.
func (r *Registry) Register(s Source) {
	if s == nil {
		panic("capture: Register of a nil Source")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sources = append(r.sources, s)
}

// list returns a copy of the registered sources, so probes (which may be
// slow: a display to open, a permission to ask) run without the lock.
func (r *Registry) list() []Source {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Source(nil), r.sources...)
}

// Probe calls Available() on each source, in registration order.
func (r *Registry) Probe() []Availability {
	sources := r.list()
	out := make([]Availability, 0, len(sources))
	for _, s := range sources {
		ok, reason := s.Available()
		out = append(out, Availability{
			Source:   s.Name(),
			Channels: append([]string(nil), s.Channels()...),
			OK:       ok,
			Reason:   reason,
		})
	}
	return out
}

// Channels returns the channels some available source provides.
func (r *Registry) Channels() map[string]bool {
	m := make(map[string]bool)
	for _, a := range r.Probe() {
		if a.OK {
			for _, c := range a.Channels {
				m[c] = true
			}
		}
	}
	return m
}

// Select returns the available sources needed for channels (each source
// once, in registration order): for each channel, the first available source
// that provides it. An unknown channel, or one no available source provides,
// is an *UnavailableError naming it and the reason (the first unavailable
// provider's reason, or NoSourceReason); the first such channel, in the order
// asked, is the one reported. No channels select no sources.
//
// Select probes every source once per call, so a permission granted since the
// last call counts.
func (r *Registry) Select(channels []string) ([]Source, error) {
	sources := r.list()
	probes := make([]Availability, len(sources))
	for i, s := range sources {
		ok, reason := s.Available()
		probes[i] = Availability{Source: s.Name(), Channels: s.Channels(), OK: ok, Reason: reason}
	}
	picked := make([]bool, len(sources))
	for _, c := range channels {
		if !KnownChannel(c) {
			return nil, &UnavailableError{Channel: c, Reason: "not a channel this build knows; use " +
				strings.Join(KnownChannels(), ", ")}
		}
		reason := ""
		found := false
		for i, p := range probes {
			if !slices.Contains(p.Channels, c) {
				continue
			}
			if p.OK {
				picked[i] = true
				found = true
				break
			}
			if reason == "" {
				reason = p.Reason
				if reason == "" {
					reason = "source " + p.Source + " is unavailable and gave no reason"
				}
			}
		}
		if !found {
			if reason == "" {
				reason = NoSourceReason
			}
			return nil, &UnavailableError{Channel: c, Reason: reason}
		}
	}
	var out []Source
	for i, s := range sources {
		if picked[i] {
			out = append(out, s)
		}
	}
	return out, nil
}

// quoteShort quotes a channel name for an error message, cut short: it came
// off the wire and may be anything.
func quoteShort(s string) string {
	const max = 24
	if len(s) > max {
		return fmt.Sprintf("%q...", s[:max])
	}
	return fmt.Sprintf("%q", s)
}

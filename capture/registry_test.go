package capture

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeSource is a source whose probe result is fixed; it never emits.
type fakeSource struct {
	name     string
	channels []string
	ok       bool
	reason   string
	probes   atomic.Int32
}

var _ Source = (*fakeSource)(nil)

func (f *fakeSource) Name() string       { return f.name }
func (f *fakeSource) Channels() []string { return f.channels }
func (f *fakeSource) Available() (bool, string) {
	f.probes.Add(1)
	return f.ok, f.reason
}
func (f *fakeSource) Start(context.Context, Session, Sink) error { return nil }
func (f *fakeSource) Stop() error                                { return nil }

func up(name string, channels ...string) *fakeSource {
	return &fakeSource{name: name, channels: channels, ok: true}
}

func down(name, reason string, channels ...string) *fakeSource {
	return &fakeSource{name: name, channels: channels, reason: reason}
}

func names(sources []Source) []string {
	var out []string
	for _, s := range sources {
		out = append(out, s.Name())
	}
	return out
}

func TestKnownChannel(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"floor", true}, {"browser", true}, {"desktop_ax", true},
		{"", false}, {"Floor", false}, {"desktop-ax", false}, {"floor ", false}, {"screen", false},
	} {
		if got := KnownChannel(tc.name); got != tc.want {
			t.Errorf("KnownChannel(%q) = %v; want %v", tc.name, got, tc.want)
		}
	}
	for _, c := range KnownChannels() {
		if !KnownChannel(c) {
			t.Errorf("KnownChannel(%q) = false for a name KnownChannels lists", c)
		}
	}
}

func TestSelect(t *testing.T) {
	const noDisplay = "no X display: start the daemon inside your desktop session"
	tests := []struct {
		name     string
		sources  []Source
		channels []string
		want     []string // source names, when no error
		wantErr  *UnavailableError
	}{
		{"nothing asked", []Source{up("x11", "floor")}, nil, nil, nil},
		{"empty registry", nil, []string{"floor"}, nil,
			&UnavailableError{"floor", NoSourceReason}},
		{"unknown channel", []Source{up("x11", "floor")}, []string{"floor", "teleport"}, nil,
			&UnavailableError{"teleport", "not a channel this build knows; use floor, browser, desktop_ax"}},
		{"no provider", []Source{up("x11", "floor")}, []string{"floor", "browser"}, nil,
			&UnavailableError{"browser", NoSourceReason}},
		{"unavailable with its reason", []Source{down("x11", noDisplay, "floor")}, []string{"floor"}, nil,
			&UnavailableError{"floor", noDisplay}},
		{"first unavailable provider's reason",
			[]Source{up("chrome", "browser"), down("x11", noDisplay, "floor"), down("other", "other reason", "floor")},
			[]string{"floor"}, nil, &UnavailableError{"floor", noDisplay}},
		{"unavailable without a reason still says why", []Source{down("x11", "", "floor")}, []string{"floor"}, nil,
			&UnavailableError{"floor", "source x11 is unavailable and gave no reason"}},
		{"first failing channel in the order asked", nil, []string{"desktop_ax", "browser"}, nil,
			&UnavailableError{"desktop_ax", NoSourceReason}},
		{"an available provider after an unavailable one",
			[]Source{down("x11", noDisplay, "floor"), up("scripted", "floor")},
			[]string{"floor"}, []string{"scripted"}, nil},
		{"several sources in registration order",
			[]Source{up("x11", "floor"), up("chrome", "browser"), up("atspi", "desktop_ax")},
			[]string{"browser", "floor"}, []string{"x11", "chrome"}, nil},
		{"each source once",
			[]Source{up("scripted", "floor", "browser", "desktop_ax")},
			[]string{"floor", "browser", "floor", "desktop_ax"}, []string{"scripted"}, nil},
		{"the first available provider of a channel only",
			[]Source{up("x11", "floor"), up("scripted", "floor")},
			[]string{"floor"}, []string{"x11"}, nil},
		{"all three channels from two sources",
			[]Source{up("chrome", "browser"), up("x11", "floor", "desktop_ax")},
			[]string{"floor", "browser", "desktop_ax"}, []string{"chrome", "x11"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry(tc.sources...)
			got, err := r.Select(tc.channels)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("Select(%v) = %v; want sources %v", tc.channels, err, tc.want)
				}
				if !reflect.DeepEqual(names(got), tc.want) {
					t.Errorf("Select(%v) = %v; want %v", tc.channels, names(got), tc.want)
				}
				return
			}
			var ue *UnavailableError
			if !errors.As(err, &ue) {
				t.Fatalf("Select(%v) = %v, %v; want *UnavailableError %+v", tc.channels, names(got), err, tc.wantErr)
			}
			if *ue != *tc.wantErr {
				t.Errorf("Select(%v) = %+v; want %+v", tc.channels, *ue, *tc.wantErr)
			}
			if !errors.Is(err, ErrChannelUnavailable) {
				t.Errorf("errors.Is(%v, ErrChannelUnavailable) = false; want true", err)
			}
			if got != nil {
				t.Errorf("Select(%v) returned sources %v with its error; want none", tc.channels, names(got))
			}
		})
	}
}

func TestSelectProbesEachSourceOnce(t *testing.T) {
	a, b := up("x11", "floor", "desktop_ax"), up("chrome", "browser")
	r := NewRegistry(a, b)
	if _, err := r.Select([]string{"floor", "browser", "desktop_ax", "floor"}); err != nil {
		t.Fatalf("Select = %v; want nil", err)
	}
	for _, s := range []*fakeSource{a, b} {
		if n := s.probes.Load(); n != 1 {
			t.Errorf("Select probed %s %d times; want 1", s.name, n)
		}
	}
	// A permission granted between two calls counts: Select probes afresh.
	c := down("atspi", "accessibility bus not running", "desktop_ax")
	r = NewRegistry(c)
	if _, err := r.Select([]string{"desktop_ax"}); err == nil {
		t.Fatal("Select(desktop_ax) = nil with its only source down; want an error")
	}
	c.ok = true
	if got, err := r.Select([]string{"desktop_ax"}); err != nil || len(got) != 1 {
		t.Errorf("Select(desktop_ax) after the source came up = %v, %v; want [atspi], nil", names(got), err)
	}
}

func TestUnavailableErrorMessage(t *testing.T) {
	long := strings.Repeat("x", 200)
	err := error(&UnavailableError{Channel: long, Reason: NoSourceReason})
	if msg := err.Error(); strings.Contains(msg, long) || !strings.Contains(msg, NoSourceReason) {
		t.Errorf("Error() = %q; want the channel cut short and the reason", msg)
	}
	if got := (&UnavailableError{"floor", "why"}).Error(); got != `capture: channel "floor" unavailable: why` {
		t.Errorf("Error() = %q; want %q", got, `capture: channel "floor" unavailable: why`)
	}
}

func TestProbeAndChannels(t *testing.T) {
	var r Registry // the zero value is ready to use
	if got := r.Channels(); len(got) != 0 {
		t.Errorf("Channels() of an empty registry = %v; want none", got)
	}
	r.Register(up("x11", "floor"))
	r.Register(down("atspi", "no accessibility bus", "desktop_ax"))
	r.Register(up("chrome", "browser"))
	want := []Availability{
		{"x11", []string{"floor"}, true, ""},
		{"atspi", []string{"desktop_ax"}, false, "no accessibility bus"},
		{"chrome", []string{"browser"}, true, ""},
	}
	if got := r.Probe(); !reflect.DeepEqual(got, want) {
		t.Errorf("Probe() = %+v; want %+v", got, want)
	}
	if got, want := r.Channels(), map[string]bool{"floor": true, "browser": true}; !reflect.DeepEqual(got, want) {
		t.Errorf("Channels() = %v; want %v", got, want)
	}
}

func TestRegisterNilPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Register(nil) did not panic; want a panic")
		}
	}()
	NewRegistry().Register(nil)
}

func TestRegistryConcurrent(t *testing.T) {
	r := NewRegistry(up("x11", "floor"))
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			r.Register(up("chrome", "browser"))
		}()
		go func() {
			defer wg.Done()
			if _, err := r.Select([]string{"floor"}); err != nil {
				t.Errorf("Select(floor) = %v; want nil", err)
			}
			r.Probe()
		}()
	}
	wg.Wait()
	if got := len(r.Probe()); got != 9 {
		t.Errorf("len(Probe()) = %d after 9 registrations; want 9", got)
	}
}

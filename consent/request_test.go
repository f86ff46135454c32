package consent

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestRequestValidate(t *testing.T) {
	tests := []struct {
		name  string
		req   Request
		field string // "" means valid
	}{
		{"minimal", Request{ModeDemonstration, RouteExtractThenCloud, []string{"floor"}}, ""},
		{"all channels, duplicated and unsorted", Request{ModeCopilot, RouteScreenshotsToCloud, []string{"floor", "desktop_ax", "browser", "floor"}}, ""},
		{"local", Request{ModeCopilot, RouteLocalVLM, []string{"browser"}}, ""},
		{"no mode", Request{"", RouteLocalVLM, []string{"floor"}}, "mode"},
		{"bad mode", Request{"Demonstration", RouteLocalVLM, []string{"floor"}}, "mode"},
		{"no route", Request{ModeCopilot, "", []string{"floor"}}, "interpretation_route"},
		{"bad route", Request{ModeCopilot, "cloud", []string{"floor"}}, "interpretation_route"},
		{"no channels", Request{ModeCopilot, RouteLocalVLM, nil}, "channels"},
		{"bad channel", Request{ModeCopilot, RouteLocalVLM, []string{"floor", "keylogger"}}, "channels[1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.req
			r.Normalize()
			err := r.Validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("Validate(%+v) = %v; want nil", tt.req, err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("Validate(%+v) = %v; want ErrInvalidRequest naming %s", tt.req, err, tt.field)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	in := []string{"floor", "desktop_ax", "browser", "floor", "browser"}
	r := Request{Channels: in}
	r.Normalize()
	if want := []string{"browser", "desktop_ax", "floor"}; !slices.Equal(r.Channels, want) {
		t.Fatalf("Normalize(%q) = %q; want %q", in, r.Channels, want)
	}
	if in[0] != "floor" || len(in) != 5 {
		t.Fatalf("Normalize changed the caller's slice: %q", in)
	}
	dup := Request{ModeCopilot, RouteLocalVLM, []string{"floor", "floor"}}
	if err := dup.Validate(); err == nil {
		t.Fatal("Validate of an unnormalized duplicate channel = nil; want an error")
	}
}

func TestKind(t *testing.T) {
	a := Request{ModeCopilot, RouteScreenshotsToCloud, []string{"floor", "browser", "floor"}}
	b := Request{ModeCopilot, RouteScreenshotsToCloud, []string{"browser", "floor"}}
	if a.Kind() != b.Kind() {
		t.Fatalf("Kind(%v) = %q, Kind(%v) = %q; want equal", a, a.Kind(), b, b.Kind())
	}
	if want := "copilot.screenshots_to_cloud.browser-floor"; a.Kind() != want {
		t.Fatalf("Kind(%v) = %q; want %q", a, a.Kind(), want)
	}
	others := []Request{
		{ModeDemonstration, RouteScreenshotsToCloud, []string{"browser", "floor"}},
		{ModeCopilot, RouteExtractThenCloud, []string{"browser", "floor"}},
		{ModeCopilot, RouteScreenshotsToCloud, []string{"floor"}},
	}
	for _, o := range others {
		if o.Kind() == a.Kind() {
			t.Errorf("Kind(%v) = Kind(%v) = %q; want different", o, a, a.Kind())
		}
		back, err := ParseKind(o.Kind())
		if err != nil || back.Kind() != o.Kind() {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", o.Kind(), back, err, o)
		}
	}
	for _, bad := range []string{"", "copilot", "copilot.local_vlm.", "copilot.local_vlm.floor.x", "copilot.nope.floor", "copilot.local_vlm.floor-mic", "copilot.local_vlm.floor-floor"} {
		if _, err := ParseKind(bad); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("ParseKind(%q) = %v; want ErrInvalidRequest", bad, err)
		}
	}
}

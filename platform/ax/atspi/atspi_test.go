package atspi

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/reprise-dev/reprise/events"
)

// TestForm runs the real thing: a GTK form (zenity) on an X desktop,
// registered on the accessibility bus, looked up, filled and submitted
// through AT-SPI. The subtests share the form and run in order; the last
// one submits it.
func TestForm(t *testing.T) {
	f := startForm(t)
	ctx := context.Background()
	fields := f.fields(t)
	first, email, password := fields[0], fields[1], fields[2]

	t.Run("root window carries the bus address", func(t *testing.T) {
		if !f.ownBus {
			t.Skip("the accessibility bus was started before this desktop, on another display")
		}
		addr, err := sessionA11yAddress(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := rootWindowBus(ctx, f.d.Display); got != addr {
			t.Errorf("rootWindowBus(%s) = %q; want %q", f.d.Display, got, addr)
		}
	})

	for _, tc := range []struct {
		name   string
		el     Element
		label  string
		secret bool
	}{
		{"first name", first, "First Name", false},
		{"email", email, "Email", false},
		{"password", password, "Password", true},
	} {
		t.Run("At on "+tc.name, func(t *testing.T) {
			x, y := centre(tc.el)
			got, err := f.e.At(ctx, x, y)
			if err != nil || got == nil {
				t.Fatalf("At(%d, %d) = %v, %v; want an enrichment", x, y, got, err)
			}
			if got.Kind != events.KindAX || got.Role != "textbox" || got.Label != tc.label {
				t.Errorf("At(%d, %d) = kind %q role %q label %q; want ax textbox %q", x, y, got.Kind, got.Role, got.Label, tc.label)
			}
			if got.AXPath == nil || !strings.HasPrefix(*got.AXPath, "dialog["+formTitle+"]/") || *got.AXPath != tc.el.AXPath {
				t.Errorf("At(%d, %d).AXPath = %v; want %q, under the dialog", x, y, got.AXPath, tc.el.AXPath)
			}
			if got.Selectors == nil || len(got.Selectors) != 0 {
				t.Errorf("At(%d, %d).Selectors = %#v; want empty, not null", x, y, got.Selectors)
			}
			if IsPassword(got) != tc.secret {
				t.Errorf("IsPassword(At(%d, %d)) = %v; want %v", x, y, !tc.secret, tc.secret)
			}
			again, err := f.e.At(ctx, x, y)
			if err != nil || again == nil || *again.AXPath != *got.AXPath {
				t.Errorf("second At(%d, %d) = %v, %v; want the same path %q", x, y, again, err, *got.AXPath)
			}
		})
	}

	t.Run("At on the OK button", func(t *testing.T) {
		ok := findOne(t, f, "button", "OK")
		x, y := centre(ok)
		got, err := f.e.At(ctx, x, y)
		if err != nil || got == nil || got.Role != "button" || got.Label != "OK" || IsPassword(got) {
			t.Errorf("At(%d, %d) = %+v, %v; want button OK", x, y, got, err)
		}
	})

	t.Run("At on the desktop background", func(t *testing.T) {
		got, err := f.e.At(ctx, 3, 3)
		if got != nil || err != nil {
			t.Errorf("At(3, 3) = %+v, %v; want nil, nil", got, err)
		}
	})

	t.Run("Find by label", func(t *testing.T) {
		got := findOne(t, f, "textbox", "First Name")
		if got.Path != first.Path || got.Bus != first.Bus {
			t.Errorf("Find(textbox, First Name) = %s%s; want %s%s", got.Bus, got.Path, first.Bus, first.Path)
		}
		if _, err := f.e.Find(ctx, "No such window", "textbox", ""); !errors.Is(err, ErrNoWindow) {
			t.Errorf("Find(No such window) error = %v; want ErrNoWindow", err)
		}
	})

	values := map[string]string{"first name": "John", "email": "john@example.com", "password": "s3cret pw"}
	t.Run("SetText and Text", func(t *testing.T) {
		for name, el := range map[string]Element{"first name": first, "email": email, "password": password} {
			if err := f.e.SetText(ctx, el, values[name]); err != nil {
				t.Fatalf("SetText(%s): %v", name, err)
			}
		}
		for name, el := range map[string]Element{"first name": first, "email": email} {
			if got, err := f.e.Text(ctx, el); err != nil || got != values[name] {
				t.Errorf("Text(%s) = %q, %v; want %q", name, got, err, values[name])
			}
		}
	})

	t.Run("DoAction with an unknown name", func(t *testing.T) {
		err := f.e.DoAction(ctx, findOne(t, f, "button", "OK"), "frobnicate")
		if err == nil || !strings.Contains(strings.ToLower(err.Error()), "click") {
			t.Errorf("DoAction(frobnicate) = %v; want an error listing click", err)
		}
	})

	t.Run("DoAction click submits the form", func(t *testing.T) {
		if err := f.e.DoAction(ctx, findOne(t, f, "button", "OK"), "click"); err != nil {
			t.Fatalf("DoAction(OK, click): %v", err)
		}
		select {
		case <-f.exited:
		case <-time.After(10 * time.Second):
			t.Fatal("zenity did not exit within 10 s of OK")
		}
		want := values["first name"] + "|" + values["email"] + "|" + values["password"] + "\n"
		if got := f.out.String(); got != want {
			t.Errorf("zenity printed %q; want %q", got, want)
		}
	})
}

func findOne(t *testing.T, f *form, role, label string) Element {
	t.Helper()
	els, err := f.e.Find(context.Background(), formTitle, role, label)
	if err != nil || len(els) != 1 {
		t.Fatalf("Find(%s, %s) = %d elements, %v; want 1", role, label, len(els), err)
	}
	return els[0]
}

func TestAvailableWithoutSessionBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", "")
	t.Setenv("AT_SPI_BUS_ADDRESS", "")
	ok, reason := Available(Options{})
	if ok || reason == "" {
		t.Fatalf("Available() = %v, %q; want false with a reason", ok, reason)
	}
	if _, err := New(Options{}); err == nil {
		t.Fatal("New() with no bus succeeded")
	} else if !errors.Is(err, ErrNoSessionBus) && !errors.Is(err, ErrUnsupported) {
		t.Errorf("New() error = %v; want ErrNoSessionBus", err)
	}
}

func TestNewWithDeadBusAddress(t *testing.T) {
	t.Setenv("AT_SPI_BUS_ADDRESS", "unix:path="+t.TempDir()+"/no-bus")
	_, err := New(Options{})
	if !errors.Is(err, ErrNoA11yBus) && !errors.Is(err, ErrUnsupported) {
		t.Errorf("New() with a dead AT_SPI_BUS_ADDRESS = %v; want ErrNoA11yBus", err)
	}
}

package x11

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/capture/desktop"
)

var le = binary.LittleEndian

// wireEvent builds a 32-byte core device event.
func wireEvent(kind desktop.Kind, detail byte, x, y int16) []byte {
	ev := make([]byte, 32)
	ev[0], ev[1] = byte(kind), detail
	le.PutUint32(ev[4:], 123456) // server time
	le.PutUint32(ev[8:], 0x2a)   // root
	le.PutUint16(ev[20:], uint16(x))
	le.PutUint16(ev[22:], uint16(y))
	return ev
}

// reply builds a RECORD EnableContext reply of category cat holding data.
func reply(cat byte, data ...[]byte) []byte {
	body := bytes.Join(data, nil)
	head := make([]byte, 32)
	head[0], head[1] = 1, cat
	le.PutUint32(head[4:], uint32(len(body)/4))
	return append(head, body...)
}

func TestParseEvent(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   []byte
		want desktop.Raw
		ok   bool
	}{
		{"key press", wireEvent(desktop.KeyPress, 38, 10, 20), desktop.Raw{Kind: desktop.KeyPress, Keycode: 38, X: 10, Y: 20}, true},
		{"key release", wireEvent(desktop.KeyRelease, 38, 0, 0), desktop.Raw{Kind: desktop.KeyRelease, Keycode: 38}, true},
		{"button press", wireEvent(desktop.ButtonPress, 3, 1279, 799), desktop.Raw{Kind: desktop.ButtonPress, Button: 3, X: 1279, Y: 799}, true},
		{"negative coordinates", wireEvent(desktop.ButtonRelease, 1, -5, -6), desktop.Raw{Kind: desktop.ButtonRelease, Button: 1, X: -5, Y: -6}, true},
		{"send event bit", append([]byte{byte(desktop.ButtonPress) | 0x80}, wireEvent(desktop.ButtonPress, 1, 1, 2)[1:]...),
			desktop.Raw{Kind: desktop.ButtonPress, Button: 1, X: 1, Y: 2}, true},
		{"motion", wireEvent(6, 0, 1, 1), desktop.Raw{}, false},
		{"short", []byte{4, 1}, desktop.Raw{}, false},
	} {
		got, ok := parseEvent(tc.ev, le)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseEvent(%s) = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestRecordStream(t *testing.T) {
	mapping := make([]byte, 32)
	mapping[0] = 34 // MappingNotify, sent to every client
	var in bytes.Buffer
	in.Write(reply(catStartOfData))
	in.Write(reply(catFromServer, wireEvent(desktop.ButtonPress, 1, 10, 20), wireEvent(desktop.ButtonRelease, 1, 10, 20)))
	in.Write(mapping)
	in.Write(reply(catFromServer, wireEvent(desktop.KeyPress, 38, 1, 2)))
	in.Write(reply(catEndOfData))
	in.Write(reply(catFromServer, wireEvent(desktop.KeyPress, 99, 1, 2))) // never read
	s := newRecordStream(&in, le)
	var got []desktop.Raw
	onEvent := func(ev []byte, order binary.ByteOrder) {
		if r, ok := parseEvent(ev, order); ok {
			got = append(got, r)
		}
	}
	var cats []byte
	for {
		cat, err := s.next(onEvent)
		if errors.Is(err, errEndOfData) {
			break
		}
		if err != nil {
			t.Fatalf("next() = %v; want the replies, then errEndOfData", err)
		}
		cats = append(cats, cat)
	}
	if want := []byte{catStartOfData, catFromServer, 0, catFromServer}; !bytes.Equal(cats, want) {
		t.Errorf("categories = %v; want %v", cats, want)
	}
	want := []desktop.Raw{{Kind: desktop.ButtonPress, Button: 1, X: 10, Y: 20}, {Kind: desktop.ButtonRelease, Button: 1, X: 10, Y: 20},
		{Kind: desktop.KeyPress, Keycode: 38, X: 1, Y: 2}}
	if len(got) != len(want) {
		t.Fatalf("events = %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %+v; want %+v", i, got[i], want[i])
		}
	}
}

func TestRecordStreamSwapped(t *testing.T) {
	ev := make([]byte, 32)
	ev[0], ev[1] = byte(desktop.ButtonPress), 1
	binary.BigEndian.PutUint16(ev[20:], 300)
	binary.BigEndian.PutUint16(ev[22:], 2)
	r := reply(catFromServer, ev)
	r[9] = 1 // client-swapped
	var got desktop.Raw
	_, err := newRecordStream(bytes.NewReader(r), le).next(func(ev []byte, o binary.ByteOrder) { got, _ = parseEvent(ev, o) })
	if err != nil || got.X != 300 || got.Y != 2 {
		t.Errorf("next(swapped) = %v, event %+v; want nil, X 300 Y 2", err, got)
	}
}

func TestRecordStreamErrors(t *testing.T) {
	xerr := make([]byte, 32)
	xerr[0], xerr[1], xerr[10] = 0, 8, 146 // BadMatch on the RECORD request
	long := reply(catFromServer)
	le.PutUint32(long[4:], maxReplyWords+1)
	for _, tc := range []struct {
		name, in, want string
	}{
		{"X error", string(xerr), "X error 8"},
		{"truncated header", string(xerr[:10]), "read record reply"},
		{"truncated data", string(reply(catFromServer, wireEvent(desktop.KeyPress, 1, 1, 1))[:40]), "read record data"},
		{"too long", string(long), "too long"},
	} {
		_, err := newRecordStream(strings.NewReader(tc.in), le).next(func([]byte, binary.ByteOrder) {})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("next(%s) = %v; want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// FuzzRecordStream: whatever the server sends, the reader neither panics nor
// hands on an event that is not 32 bytes.
func FuzzRecordStream(f *testing.F) {
	f.Add(reply(catStartOfData))
	f.Add(append(reply(catFromServer, wireEvent(desktop.KeyPress, 38, 1, 2)), reply(catEndOfData)...))
	f.Add([]byte{35, 0, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		s := newRecordStream(bytes.NewReader(in), le)
		for range 64 {
			_, err := s.next(func(ev []byte, o binary.ByteOrder) {
				if len(ev) != 32 {
					t.Fatalf("event of %d bytes; want 32", len(ev))
				}
				parseEvent(ev, o)
			})
			if err != nil {
				return
			}
		}
	})
}

package x11

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/reprise-dev/reprise/capture/desktop"
)

// RECORD reply categories (the RECORD extension protocol, "EnableContext").
const (
	catFromServer  = 0
	catStartOfData = 4
	catEndOfData   = 5
)

// errEndOfData says the context was disabled: the stream ended cleanly.
var errEndOfData = errors.New("x11: record context disabled")

// maxReplyWords bounds one RECORD reply (in 4-byte words), so a corrupt
// length cannot make us allocate without limit. The server flushes its
// buffer well below this.
const maxReplyWords = 1 << 20

// parseEvent reads a 32-byte core device event (xEvent) as RECORD delivers
// it. ok is false for anything but the four device events we asked for.
func parseEvent(ev []byte, order binary.ByteOrder) (r desktop.Raw, ok bool) {
	if len(ev) < 32 {
		return desktop.Raw{}, false
	}
	kind := desktop.Kind(ev[0] & 0x7f) // the high bit marks a SendEvent
	if kind < desktop.KeyPress || kind > desktop.ButtonRelease {
		return desktop.Raw{}, false
	}
	r = desktop.Raw{
		Kind: kind,
		X:    int(int16(order.Uint16(ev[20:]))),
		Y:    int(int16(order.Uint16(ev[22:]))),
	}
	if kind == desktop.KeyPress || kind == desktop.KeyRelease {
		r.Keycode = ev[1]
	} else {
		r.Button = int(ev[1])
	}
	return r, true
}

// recordStream reads the replies to one RecordEnableContext: a StartOfData,
// then FromServer replies holding device events, until EndOfData. It calls
// onEvent for every 32-byte event in the data, with the byte order the event
// is in. Stray events sent to every client (MappingNotify) are skipped.
type recordStream struct {
	r     *bufio.Reader
	order binary.ByteOrder // the byte order we set up the connection with
	buf   []byte
}

func newRecordStream(r io.Reader, order binary.ByteOrder) *recordStream {
	return &recordStream{r: bufio.NewReaderSize(r, 64<<10), order: order}
}

// next reads one reply and hands its events to onEvent. It returns the
// reply's category, errEndOfData at the end, or the X error or read error.
func (s *recordStream) next(onEvent func(ev []byte, order binary.ByteOrder)) (category byte, err error) {
	var head [32]byte
	if _, err := io.ReadFull(s.r, head[:]); err != nil {
		return 0, fmt.Errorf("read record reply: %w", err)
	}
	switch head[0] {
	case 0:
		return 0, fmt.Errorf("x11: record: X error %d (major %d, minor %d)",
			head[1], head[10], s.order.Uint16(head[8:]))
	case 1:
	case 35: // GenericEvent: never selected, but skip it whole if it comes
		return 0, s.skip(s.order.Uint32(head[4:]))
	default:
		return 0, nil // a core event every client gets
	}
	words := s.order.Uint32(head[4:])
	if words > maxReplyWords {
		return 0, fmt.Errorf("x11: record reply of %d words is too long", words)
	}
	n := int(words) * 4
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	data := s.buf[:n]
	if _, err := io.ReadFull(s.r, data); err != nil {
		return 0, fmt.Errorf("read record data: %w", err)
	}
	category = head[1]
	switch category {
	case catEndOfData:
		return category, errEndOfData
	case catFromServer:
		order := s.order
		if head[9] != 0 { // client-swapped: the data is in the other order
			order = swapped(order)
		}
		// Element header 0 (we ask for none): the data is bare events.
		for len(data) >= 32 {
			onEvent(data[:32], order)
			data = data[32:]
		}
	}
	return category, nil
}

func (s *recordStream) skip(words uint32) error {
	if words > maxReplyWords {
		return fmt.Errorf("x11: event of %d words is too long", words)
	}
	_, err := s.r.Discard(int(words) * 4)
	return err
}

func swapped(o binary.ByteOrder) binary.ByteOrder {
	if o == binary.ByteOrder(binary.LittleEndian) {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

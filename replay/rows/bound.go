package rows

import (
	"bytes"
	"fmt"
	"io"
)

// Bounds on the bytes a CSV reader takes: a file bigger than a run of
// MaxRows rows, or a line longer than a row of big cells, is not a CSV of
// form values (a device, a binary, a file with no line breaks), and would
// otherwise be read into memory without end.
const (
	MaxFileSize = 256 << 20
	MaxLineSize = 16 << 20
)

// Bound returns r read through the bounds: past either, reads fail with
// ErrTooBig.
func Bound(r io.Reader) io.Reader {
	return &bounded{r: r}
}

type bounded struct {
	r     io.Reader
	total int64
	line  int64 // bytes since the last line break
}

func (b *bounded) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	b.total += int64(n)
	if i := bytes.LastIndexByte(p[:n], '\n'); i >= 0 {
		b.line = int64(n - i - 1)
	} else {
		b.line += int64(n)
	}
	switch {
	case b.total > MaxFileSize:
		return 0, fmt.Errorf("%w: it is over %d MiB; split it across runs", ErrTooBig, MaxFileSize>>20)
	case b.line > MaxLineSize:
		return 0, fmt.Errorf("%w: a line is over %d MiB long: is it a CSV?", ErrTooBig, MaxLineSize>>20)
	}
	return n, err
}

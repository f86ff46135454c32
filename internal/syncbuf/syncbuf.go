// Package syncbuf is a bytes.Buffer safe for concurrent use: the sink for a
// child process's output, or a logger's, that a test reads while it is
// still being written.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer collects writes; the zero value is ready to use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

package desktop

import (
	"context"
	"fmt"
	"sync"

	"github.com/reprise-dev/reprise/capture"
)

// Session is one running recording of a desktop source.
type Session[St any] interface {
	// Stats counts the session's input and output so far.
	Stats() St
	// Shutdown stops the input, lets the pipeline flush what is pending (a
	// fill being typed is committed, a held click emitted) and returns when
	// nothing more will be emitted. It is safe to call twice.
	Shutdown()
}

// Shell is the part of a Source every OS's desktop source shares: its name
// and channel, one session at a time started and stopped under one lock,
// and the counts of the running session, or of the last one. St is the
// source's Stats.
type Shell[St any] struct {
	name string

	mu      sync.Mutex
	sess    Session[St] // nil when not started
	unwatch func() bool // stops watching the session's context
	last    St
}

// NewShell returns the shell of the source called name.
func NewShell[St any](name string) *Shell[St] { return &Shell[St]{name: name} }

// Name returns the source's name.
func (s *Shell[St]) Name() string { return s.name }

// Channels returns the floor channel.
func (s *Shell[St]) Channels() []string { return []string{capture.ChannelFloor} }

// Stats returns the counts of the running session, or of the last one.
func (s *Shell[St]) Stats() St {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil {
		return s.sess.Stats()
	}
	return s.last
}

// Begin runs open unless a session is running, and shuts the session
// down when ctx ends. open's error is returned as it is.
func (s *Shell[St]) Begin(ctx context.Context, open func() (Session[St], error)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil {
		return fmt.Errorf("start %s source: already started; Stop it first", s.name)
	}
	sess, err := open()
	if err != nil {
		return err
	}
	s.sess = sess
	s.unwatch = context.AfterFunc(ctx, sess.Shutdown)
	return nil
}

// Stop ends the running session and keeps its counts. It is safe to call
// twice, and without a start.
func (s *Shell[St]) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		return nil
	}
	s.unwatch()
	s.sess.Shutdown()
	s.last = s.sess.Stats()
	s.sess = nil
	return nil
}

package x11

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/record"

	"github.com/reprise-dev/reprise/capture"
	"github.com/reprise-dev/reprise/capture/desktop"
)

// Bounds on talking to the X server, so that a hung server cannot hold Start
// or Stop.
const (
	logKeyErr = "err" // the log key of an error

	dialTimeout = 5 * time.Second
	stopTimeout = time.Second
)

// session is one Start..Stop: the two connections and the goroutines
// between them.
type session struct {
	c       *xgb.Conn
	raw     net.Conn
	desk    *xdisplay
	context record.Context
	pipe    *pipeline
	log     *slog.Logger

	once     sync.Once
	readDone chan struct{} // the RECORD reader has exited and closed pipe.in
	runDone  chan struct{} // the pipeline has flushed and exited
	watching sync.WaitGroup
}

// Available reports whether the display can be recorded: it is set, it
// answers, and it has the RECORD and XTEST extensions.
func (s *Source) Available() (bool, string) {
	if s.opts.Display == "" {
		if os.Getenv("WAYLAND_DISPLAY") != "" {
			return false, "this is a Wayland session with no X display: X11 capture sees only X applications; " +
				"log in to an X11 session, or set DISPLAY to an Xwayland display"
		}
		return false, "no X display: DISPLAY is not set; run inside an X session or set DISPLAY"
	}
	c, err := connect(s.opts.Display)
	if err != nil {
		return false, err.Error() + "; check DISPLAY and XAUTHORITY"
	}
	defer c.Close()
	missing, err := missingExtensions(c)
	if err != nil {
		return false, err.Error()
	}
	if len(missing) > 0 {
		noun := "extension"
		if len(missing) > 1 {
			noun += "s"
		}
		return false, fmt.Sprintf("the X server on %s lacks the %s %s: enable them in the X server's configuration",
			s.opts.Display, strings.Join(missing, " and "), noun)
	}
	return true, ""
}

// Start connects to the display, enables a RECORD context for all clients'
// key and button events, and returns once the server has confirmed that
// recording runs. Steps go to sink until Stop or ctx ends.
func (s *Source) Start(ctx context.Context, _ capture.Session, sink capture.Sink) error {
	if sink == nil {
		return errors.New("start x11 source: nil sink")
	}
	return s.Begin(ctx, func() (desktop.Session[desktop.Stats], error) {
		sess, err := s.open(ctx, sink)
		if err != nil {
			return nil, fmt.Errorf("start x11 source on %s: %w", s.opts.Display, err)
		}
		return sess, nil
	})
}

func (s *Source) open(ctx context.Context, sink capture.Sink) (sess *session, err error) {
	c, err := connect(s.opts.Display)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			c.Close()
		}
	}()
	if missing, err := missingExtensions(c); err != nil || len(missing) > 0 {
		if err == nil {
			err = fmt.Errorf("the X server lacks %s", strings.Join(missing, " and "))
		}
		return nil, err
	}
	if err := record.Init(c); err != nil {
		return nil, fmt.Errorf("init RECORD: %w", err)
	}
	desk, err := newDisplay(c)
	if err != nil {
		return nil, err
	}
	// The context belongs to the normal connection (its id space), so Stop
	// can disable it there while the raw connection is busy streaming.
	rc, err := record.NewContextId(c)
	if err != nil {
		return nil, fmt.Errorf("allocate RECORD context: %w", err)
	}
	ranges := []record.Range{{DeviceEvents: record.Range8{First: byte(desktop.KeyPress), Last: byte(desktop.ButtonRelease)}}}
	err = record.CreateContextChecked(c, rc, 0, 1, 1, []record.ClientSpec{record.CsAllClients}, ranges).Check()
	if err != nil {
		return nil, fmt.Errorf("create RECORD context: %w", err)
	}
	raw, err := dialRaw(s.opts.Display, dialTimeout)
	if err != nil {
		record.FreeContext(c, rc)
		return nil, err
	}
	sess = &session{c: c, raw: raw, desk: desk, context: rc, log: s.opts.Logger,
		pipe:     newPipeline(sink, s.opts, desk.resolve),
		readDone: make(chan struct{}), runDone: make(chan struct{})}
	stream := newRecordStream(raw, binary.LittleEndian)
	if err := sess.begin(stream); err != nil {
		raw.Close()
		record.FreeContext(c, rc)
		return nil, err
	}
	sess.watching.Add(1)
	go func() { defer sess.watching.Done(); desk.watch() }()
	go sess.read(stream)
	go func() { defer close(sess.runDone); sess.pipe.Run(ctx) }()
	return sess, nil
}

// begin enables the context on the raw connection and waits for the
// server's StartOfData: from then on no input is missed.
func (sess *session) begin(stream *recordStream) error {
	if err := enableContext(sess.raw, sess.c.Extensions["RECORD"], uint32(sess.context)); err != nil {
		return err
	}
	_ = sess.raw.SetReadDeadline(time.Now().Add(dialTimeout))
	defer sess.raw.SetReadDeadline(time.Time{})
	for {
		cat, err := stream.next(onWire(sess.pipe))
		if err != nil {
			return fmt.Errorf("enable RECORD context: %w", err)
		}
		if cat == catStartOfData {
			return nil
		}
	}
}

// read is the input path: it hands each recorded event to the pipeline's
// callback until the context is disabled or the connection fails.
func (sess *session) read(stream *recordStream) {
	defer close(sess.readDone)
	defer sess.pipe.Close()
	for {
		if _, err := stream.next(onWire(sess.pipe)); err != nil {
			if !errors.Is(err, errEndOfData) && !errors.Is(err, net.ErrClosed) && !errors.Is(err, os.ErrDeadlineExceeded) {
				sess.log.Warn("record stream ended", logKeyErr, err)
			}
			return
		}
	}
}

// Stats counts the session's input and output so far.
func (sess *session) Stats() desktop.Stats { return sess.pipe.Stats() }

// Shutdown disables recording, lets the pipeline flush what is pending and
// closes both connections. It runs once, from Stop or when ctx ends, and
// returns when nothing more will be emitted.
func (sess *session) Shutdown() {
	sess.once.Do(func() {
		// Whatever the server does, the reader stops by this deadline.
		_ = sess.raw.SetReadDeadline(time.Now().Add(stopTimeout))
		disabled := make(chan error, 1)
		go func() { disabled <- record.DisableContextChecked(sess.c, sess.context).Check() }()
		select {
		case err := <-disabled:
			if err != nil {
				sess.log.Warn("disable RECORD context", logKeyErr, err)
			}
		case <-time.After(stopTimeout):
		}
		<-sess.readDone
		sess.raw.Close()
		<-sess.runDone
		record.FreeContext(sess.c, sess.context)
		sess.c.Close()
		sess.watching.Wait()
	})
}

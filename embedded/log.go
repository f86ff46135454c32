package embedded

import (
	"fmt"
	"log/slog"
	"strings"
)

// slogAdapter passes the NATS server's log lines to slog.
type slogAdapter struct{ log *slog.Logger }

func (a slogAdapter) Noticef(format string, v ...any) { a.log.Debug(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Warnf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	// The WebSocket listens on 127.0.0.1 behind the Origin gate: TLS would
	// add nothing there, and a warning every start would teach people to
	// ignore warnings.
	if strings.HasPrefix(msg, "Websocket not configured with TLS") {
		a.log.Debug(msg)
		return
	}
	a.log.Warn(msg)
}
func (a slogAdapter) Fatalf(format string, v ...any) { a.log.Error(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Errorf(format string, v ...any) { a.log.Error(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Debugf(format string, v ...any) { a.log.Debug(fmt.Sprintf(format, v...)) }
func (a slogAdapter) Tracef(format string, v ...any) { a.log.Debug(fmt.Sprintf(format, v...)) }

package atspi

import (
	"context"
	"io"
	"log"
	"sync"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// xTimeout bounds the X round trips when the caller's context has no
// deadline: a wedged X server must not stop the session bus being asked.
const xTimeout = time.Second

var quietX sync.Once

// rootWindowBus reads the AT_SPI_BUS property that at-spi-bus-launcher sets
// on the X root window; "" when there is no display, no property, or the X
// server does not answer in time (the session bus is asked next).
func rootWindowBus(ctx context.Context, display string) string {
	if display == "" {
		return ""
	}
	quietX.Do(func() {
		// xgb complains on stderr about a missing ~/.Xauthority, which
		// Xvfb and many sessions do not use; the repo's other X users
		// silence it the same way.
		xgb.Logger = log.New(io.Discard, "", 0)
	})
	done := make(chan string, 1)
	go func() {
		c, err := xgb.NewConnDisplay(display)
		if err != nil {
			done <- ""
			return
		}
		defer c.Close()
		done <- readBusProperty(c)
	}()
	ctx, cancel := context.WithTimeout(ctx, xTimeout)
	defer cancel()
	select {
	case addr := <-done:
		return addr
	case <-ctx.Done():
		return "" // the goroutine finishes and closes on its own
	}
}

func readBusProperty(c *xgb.Conn) string {
	atom, err := xproto.InternAtom(c, true, uint16(len("AT_SPI_BUS")), "AT_SPI_BUS").Reply()
	if err != nil || atom.Atom == xproto.AtomNone {
		return ""
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	prop, err := xproto.GetProperty(c, false, root, atom.Atom, xproto.AtomString, 0, 1024).Reply()
	if err != nil || prop.Format != 8 {
		return ""
	}
	return trimNUL(string(prop.Value))
}

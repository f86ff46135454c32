package doctor

import (
	"context"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// x11Extensions checks what the X11 desktop floor needs of the X server:
// RECORD to see input, XTEST to replay it, MIT-SHM to grab frames cheaply.
func x11Extensions(context.Context) Check {
	c := Check{Name: "X11 extensions"}
	if os.Getenv("DISPLAY") == "" {
		c.Detail, c.Fix = "no DISPLAY: desktop capture and replay need an X11 session", "run inside an X11 session, or under Xvfb"
		return c
	}
	xgb.Logger = log.New(io.Discard, "", 0) // its chatter is not the person's business
	conn, err := xgb.NewConn()
	if err != nil {
		c.Detail, c.Fix = "cannot connect to the X server: "+err.Error(), "check DISPLAY and XAUTHORITY"
		return c
	}
	defer conn.Close()
	var have, missing []string
	for _, ext := range []string{"RECORD", "XTEST", "MIT-SHM"} {
		r, err := xproto.QueryExtension(conn, uint16(len(ext)), ext).Reply()
		if err == nil && r.Present {
			have = append(have, ext)
		} else {
			missing = append(missing, ext)
		}
	}
	switch {
	case len(missing) == 0:
		c.OK, c.Detail = true, strings.Join(have, ", ")
	case strings.Join(missing, ",") == "MIT-SHM":
		c.OK, c.Detail = true, strings.Join(have, ", ")+"; no MIT-SHM: frames are grabbed more slowly"
	default:
		c.Detail = "the X server lacks " + strings.Join(missing, ", ") + ": desktop capture needs RECORD, replay needs XTEST"
		c.Fix = "enable the RECORD and XTEST extensions in the X server (most have them; Xvfb does)"
	}
	return c
}

// a11yBus checks for the accessibility bus AT-SPI enrichment reads.
func a11yBus(ctx context.Context) Check {
	c := Check{Name: "accessibility bus"}
	if addr := os.Getenv("AT_SPI_BUS_ADDRESS"); addr != "" {
		c.OK, c.Detail = true, "AT_SPI_BUS_ADDRESS is set"
		return c
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		c.Detail, c.Fix = "no session bus: desktop steps get no accessibility data (kind: none)", "run inside a desktop session (or dbus-run-session) with at-spi2-core"
		return c
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		c.Detail, c.Fix = "the session bus does not answer: "+err.Error(), "run inside a desktop session with at-spi2-core"
		return c
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	var addr string
	if err := conn.Object("org.a11y.Bus", "/org/a11y/bus").CallWithContext(ctx, "org.a11y.Bus.GetAddress", 0).Store(&addr); err != nil || addr == "" {
		c.Detail, c.Fix = "no org.a11y.Bus on the session bus: desktop steps get no accessibility data", "install at-spi2-core (Debian: apt-get install at-spi2-core)"
		return c
	}
	c.OK, c.Detail = true, "org.a11y.Bus answers"
	return c
}

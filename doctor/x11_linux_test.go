package doctor

import (
	"context"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/internal/xvfb"
)

func TestX11Probes(t *testing.T) {
	t.Setenv("DISPLAY", "")
	if c := x11Extensions(context.Background()); c.OK || !strings.Contains(c.Detail, "no DISPLAY") || c.Fix == "" {
		t.Errorf("without a display: %+v; want a no with what to do", c)
	}
	d := xvfb.Start(t)
	t.Setenv("DISPLAY", d.Display)
	c := x11Extensions(context.Background())
	if !c.OK || !strings.Contains(c.Detail, "RECORD") || !strings.Contains(c.Detail, "XTEST") {
		t.Errorf("under Xvfb: %+v; want RECORD and XTEST found", c)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("AT_SPI_BUS_ADDRESS", "")
	if c := a11yBus(context.Background()); c.OK || c.Fix == "" {
		t.Errorf("without a session bus: %+v; want a no with what to do", c)
	}
}

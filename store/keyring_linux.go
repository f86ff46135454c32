package store

import (
	"fmt"
	"os"
)

// sessionBusMissing reports why there is no D-Bus session bus to reach a
// Secret Service on, or "" when there may be one. It looks where godbus looks
// before it would autolaunch a bus: given neither, godbus runs dbus-launch,
// which starts a bus and daemons that outlive the process.
func sessionBusMissing() string {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return ""
	}
	run := fmt.Sprintf("/run/user/%d/", os.Getuid())
	for _, f := range []string{"bus", "dbus-session"} {
		if _, err := os.Stat(run + f); err == nil {
			return ""
		}
	}
	return "no D-Bus session bus to find a Secret Service on (DBUS_SESSION_BUS_ADDRESS is unset and " + run + "bus is missing)"
}

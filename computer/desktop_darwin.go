package computer

import (
	"context"
	"fmt"

	"github.com/ebitengine/purego"
	"golang.org/x/sys/unix"

	"github.com/reprise-dev/reprise/platform/cocoa"
)

const pathCarbon = "/System/Library/Frameworks/Carbon.framework/Carbon"

// macDesktop lists the window server's windows and asks Carbon whether
// secure event input is on (a password field anywhere has the keyboard).
type macDesktop struct {
	isSecure func() bool
}

// OpenDesktop binds the window server and Carbon.
func OpenDesktop(string) (Desktop, error) {
	d := &macDesktop{}
	if err := cocoa.Load(); err != nil {
		return nil, err
	}
	lib, err := cocoa.Open(pathCarbon)
	if err != nil {
		return nil, fmt.Errorf("open Carbon: %w", err)
	}
	purego.RegisterLibFunc(&d.isSecure, lib, "IsSecureEventInputEnabled")
	return d, nil
}

func (d *macDesktop) Windows(context.Context) ([]Window, error) {
	ws, err := cocoa.Windows()
	if err != nil {
		return nil, err
	}
	_, front, _ := cocoa.Frontmost()
	return fromCocoa(ws, front), nil
}

func (d *macDesktop) SecureInput(context.Context) (bool, error) { return d.isSecure(), nil }

// Parents returns pid's ancestors, nearest first (sysctl kern.proc.pid).
func Parents(pid int) []int {
	var out []int
	for len(out) < 32 {
		p, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
		if err != nil || p.Eproc.Ppid <= 1 {
			return out
		}
		pid = int(p.Eproc.Ppid)
		out = append(out, pid)
	}
	return out
}

// ownIntegrity: integrity levels are Windows'.
func ownIntegrity() int { return 0 }

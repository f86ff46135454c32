package doctor

import (
	"context"

	"github.com/reprise-dev/reprise/capture/quartz"
	"github.com/reprise-dev/reprise/platform/ax/axmac"
	"github.com/reprise-dev/reprise/platform/screen"
)

func platformProbes() []Probe {
	ps := []Probe{func(context.Context) Check {
		return Check{Name: "display", OK: true, Detail: "Quartz; recording and replay need the permissions below"}
	}}
	for _, p := range platformPermissions() {
		ps = append(ps, permissionProbe(p))
	}
	return append(ps,
		Browser("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium", "chromium"))
}

// platformPermissions reads and requests macOS's privacy permissions:
// Accessibility (AXIsProcessTrusted), Input Monitoring
// (CGPreflightListenEventAccess, through the Quartz source's Available) and
// Screen Recording (CGPreflightScreenCaptureAccess).
func platformPermissions() []permission {
	return []permission{
		{Permission: Accessibility, Granted: axmac.IsTrusted, Request: axmac.RequestTrust},
		{Permission: InputMonitoring, Granted: listenAllowed, Request: quartz.RequestListenAccess},
		{Permission: ScreenRecording, Granted: screen.ScreenCaptureAllowed, Request: screen.RequestScreenCapture},
	}
}

func listenAllowed() bool {
	ok, _ := quartz.New(quartz.Options{}).Available()
	return ok
}

const keychainFix = "unlock the login keychain (Keychain Access)"

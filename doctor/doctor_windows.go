package doctor

import (
	"context"
	"fmt"

	"golang.org/x/sys/windows"

	"github.com/reprise-dev/reprise/capture/winhook"
	"github.com/reprise-dev/reprise/platform/ax/msaa"
	"github.com/reprise-dev/reprise/platform/ax/uia"
	"github.com/reprise-dev/reprise/platform/screen"
)

func platformProbes() []Probe {
	return []Probe{
		func(context.Context) Check {
			return Check{Name: "display", OK: true, Detail: "the interactive desktop"}
		},
		hooks, uiAutomation, msaaProbe, gdiFrames, elevation,
		Browser("chrome.exe", "msedge.exe", "chromium.exe",
			`C:\Program Files\Google\Chrome\Application\chrome.exe`,
			`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`),
	}
}

// hooks checks that the low-level hooks could see the person's input.
func hooks(context.Context) Check {
	c := Check{Name: "capture: input hooks"}
	if ok, why := winhook.New(winhook.Options{}).Available(); !ok {
		c.Detail, c.Fix = why, "run reprise in the person's own desktop session, not as a service"
		return c
	}
	c.OK, c.Detail = true, "WH_MOUSE_LL and WH_KEYBOARD_LL can see this desktop's input"
	return c
}

// uiAutomation checks that a UI Automation client can be made.
func uiAutomation(context.Context) Check {
	c := Check{Name: "accessibility: UI Automation"}
	cl, err := uia.New(uia.Options{})
	if err != nil {
		c.Detail = err.Error() + ": steps are named through MSAA instead, and replay acts by input at recorded points"
		c.Fix = "UI Automation ships with Windows (UIAutomationCore.dll); where it is missing (Wine has no client), MSAA names the steps"
		return c
	}
	cl.Close()
	c.OK, c.Detail = true, "a UI Automation client answers: steps are named through it, and replay acts through its patterns"
	return c
}

// msaaProbe checks that MSAA (oleacc) can be asked about elements.
func msaaProbe(context.Context) Check {
	c := Check{Name: "accessibility: MSAA"}
	e, err := msaa.New(msaa.Options{})
	if err != nil {
		c.Detail, c.Fix = err.Error(), "oleacc.dll ships with Windows; without it, steps carry no accessibility data"
		return c
	}
	e.Close()
	c.OK, c.Detail = true, "oleacc answers: steps are named through MSAA where UI Automation is missing"
	return c
}

// gdiFrames grabs one frame of the screen as the recorder would.
func gdiFrames(context.Context) Check {
	c := Check{Name: "capture: frames"}
	g, err := screen.NewGDI()
	if err != nil {
		c.Detail, c.Fix = err.Error(), "run reprise in the person's own desktop session, where the screen can be read"
		return c
	}
	defer g.Close()
	img, err := g.Grab()
	if err != nil {
		c.Detail, c.Fix = "BitBlt of the screen failed: "+err.Error(), "run reprise in the person's own desktop session, where the screen can be read"
		return c
	}
	b := img.Bounds()
	c.OK, c.Detail = true, fmt.Sprintf("BitBlt grabs the virtual screen (%dx%d)", b.Dx(), b.Dy())
	return c
}

// elevation says whether this process runs elevated: Windows drops input
// sent to a window of a higher integrity level (UIPI).
func elevation(context.Context) Check {
	c := Check{Name: "replay: elevation", OK: true}
	if windows.GetCurrentProcessToken().IsElevated() {
		c.Detail = "reprise runs elevated (as administrator): it can drive apps that run as administrator too"
		return c
	}
	c.Detail = "reprise runs unelevated: Windows keeps its input out of apps that run as administrator (UIPI); " +
		"run reprise as administrator to replay into those"
	return c
}

const keychainFix = "sign in to an interactive Windows session; Credential Manager needs one"

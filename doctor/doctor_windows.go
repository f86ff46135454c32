package doctor

import "context"

func platformProbes() []Probe {
	return []Probe{
		func(context.Context) Check {
			return Check{Name: "display", OK: true, Detail: "the interactive desktop"}
		},
		Browser("chrome.exe", "msedge.exe", "chromium.exe",
			`C:\Program Files\Google\Chrome\Application\chrome.exe`,
			`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`),
	}
}

const keychainFix = "sign in to an interactive Windows session; Credential Manager needs one"

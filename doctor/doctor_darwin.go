package doctor

import "context"

func platformProbes() []Probe {
	return []Probe{
		func(context.Context) Check {
			return Check{Name: "display", OK: true, Detail: "Quartz; recording needs the Accessibility and Screen Recording permissions"}
		},
		Browser("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium", "chromium"),
	}
}

const keychainFix = "unlock the login keychain (Keychain Access)"

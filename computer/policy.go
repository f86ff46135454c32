package computer

import (
	"os"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/ops"
)

// Env names of the person's deny list: comma-separated app names and
// title substrings, compared ignoring case.
const (
	EnvProtectedApps   = "REPRISE_PROTECTED_APPS"
	EnvProtectedTitles = "REPRISE_PROTECTED_TITLES"
)

// builtinApps are credential and keychain UIs no setting removes.
var builtinApps = []string{
	"keychain access", "keychainaccess", "securityagent", "coreautha", "seahorse",
	"gnome-keyring-daemon", "gcr-prompter", "polkit-gnome-authentication-agent-1",
	"pinentry", "pinentry-gtk-2", "pinentry-gnome3", "pinentry-qt", "kwalletmanager5",
	"credentialuibroker", "consent", "lsass", "logonui", "1password", "bitwarden", "keepassxc",
}

// builtinTitles are the titles of the same kind of windows.
var builtinTitles = []string{
	"windows security", "user account control", "unlock keyring", "unlock login keyring",
	"authentication required", "enter password", "keychain access",
}

// Policy decides which windows are refused: reprise's own, the deny list,
// apps elevated above reprise. Refusals that depend on the moment (secure
// input) are the broker's.
type Policy struct {
	// Self are the PIDs of reprise's own processes and the terminals
	// running them (and their parents): their windows are never targets.
	Self []int
	// SelfTitles are title substrings of reprise's own windows (its
	// review page, consent dialogs), refused whichever process shows them.
	SelfTitles []string
	// Apps and Titles are the person's deny list, beside the built-in one.
	Apps, Titles []string
	// Integrity is reprise's own integrity level (Windows); a window of a
	// process above it is refused. 0: not compared.
	Integrity int
	// Callers, if set, returns at each listing the PIDs of the programs
	// connected to the daemon now (found from their connections, not from
	// what they say) and their parents: the program that asked for a run
	// and the terminal it runs in are never its targets.
	Callers func() []int
}

// PolicyFromEnv is the policy for this process: itself and its parents as
// self, the deny list from the environment.
func PolicyFromEnv(parents []int) Policy {
	return Policy{
		Self:       append([]int{os.Getpid()}, parents...),
		SelfTitles: []string{"reprise review", "reprise consent", "reprise:"},
		Apps:       splitList(os.Getenv(EnvProtectedApps)),
		Titles:     splitList(os.Getenv(EnvProtectedTitles)),
		Integrity:  ownIntegrity(),
	}
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.ToLower(strings.TrimSpace(p)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// TitleWithheld stands for a title the OS would not tell (macOS without
// Screen Recording permission): such a window is refused, since the deny
// list cannot be checked against it.
const TitleWithheld = "(title withheld)"

// Refuse says why w may not be a target: a code and a reason, or "".
func (p Policy) Refuse(w Window) (code, reason string) {
	title, app := strings.ToLower(w.Title), strings.ToLower(w.App)
	if slices.Contains(p.Self, w.PID) && w.PID != 0 {
		return ops.CodeComputerSelfTargetRefused, "a window of reprise itself, or of the terminal running it"
	}
	if w.Title == TitleWithheld {
		return ops.CodeComputerTargetDenyListed, "its title is withheld (grant reprise Screen Recording), so the deny list cannot be checked"
	}
	for _, t := range p.SelfTitles {
		if t != "" && strings.Contains(title, strings.ToLower(t)) {
			return ops.CodeComputerSelfTargetRefused, "a window of reprise itself"
		}
	}
	for _, a := range append(slices.Clone(builtinApps), p.Apps...) {
		if app == a {
			return ops.CodeComputerTargetDenyListed, "its app is on the deny list (" + a + ")"
		}
	}
	for _, t := range append(slices.Clone(builtinTitles), p.Titles...) {
		if strings.Contains(title, t) {
			return ops.CodeComputerTargetDenyListed, "its title is on the deny list"
		}
	}
	if p.Integrity > 0 && w.Integrity > p.Integrity {
		return ops.CodeComputerTargetElevated, "its app runs elevated above reprise"
	}
	return "", ""
}

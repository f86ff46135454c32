package doctor

import (
	"context"
	"fmt"
	"io"
	"runtime"
)

// Permission is a privacy permission macOS gates reprise behind: a person
// grants it in System Settings > Privacy & Security, and a process sees a
// grant only once it restarts.
type Permission struct {
	// Name is the permission's name in System Settings > Privacy &
	// Security, such as "Accessibility".
	Name string
	// Uses says what reprise does with it.
	Uses string
	// Without says what does not work until it is granted.
	Without string
}

// The permissions reprise needs on macOS, in the order doctor reports and
// asks for them.
var (
	Accessibility = Permission{
		Name:    "Accessibility",
		Uses:    "reprise reads the accessibility tree (what a step clicked, by name), acts through it in replay, and posts replay's input",
		Without: "steps carry no accessibility data (kind: none) and replay can neither act through the tree nor post input",
	}
	InputMonitoring = Permission{
		Name:    "Input Monitoring",
		Uses:    "reprise sees the mouse and keys while it records the desktop",
		Without: "desktop recording sees no input (the listen-only event tap cannot start)",
	}
	ScreenRecording = Permission{
		Name:    "Screen Recording",
		Uses:    "each step carries the frame from before it, and windows their titles",
		Without: "steps carry no frames and windows no titles",
	}
)

// Settings is where in System Settings a person grants p.
func (p Permission) Settings() string {
	return "System Settings > Privacy & Security > " + p.Name
}

// permission is a Permission with the calls that read and request it.
type permission struct {
	Permission
	// Granted reports whether this process has it now.
	Granted func() bool
	// Request shows macOS's prompt for it and reports whether it is
	// granted now (a grant made in the prompt counts after a restart).
	Request func() bool
}

// PermissionCheck is doctor's check of p, granted or not.
func PermissionCheck(p Permission, granted bool) Check {
	c := Check{Name: "permission: " + p.Name}
	if granted {
		c.OK, c.Detail = true, "granted: "+p.Uses
		return c
	}
	c.Detail = fmt.Sprintf("not granted, so %s. Allow reprise in %s (run from a terminal, macOS lists the terminal app), "+
		"then restart reprise", p.Without, p.Settings())
	c.Fix = "`reprise doctor --request` has macOS show its " + p.Name + " prompt; grant it there or in " +
		p.Settings() + ", then restart reprise"
	return c
}

// permissionProbe checks p when doctor runs, after any request.
func permissionProbe(p permission) Probe {
	return func(context.Context) Check { return PermissionCheck(p.Permission, p.Granted()) }
}

// requestPermissions asks, for each of perms not granted, for macOS's
// prompt, and returns one line a permission saying what it did; with no
// perms (a system without permission prompts) one line saying so.
func requestPermissions(goos string, perms []permission) []string {
	if len(perms) == 0 {
		return []string{"--request: nothing to ask for on " + goos + ": no permission prompts gate reprise here"}
	}
	var out []string
	for _, p := range perms {
		switch {
		case p.Granted():
			out = append(out, "--request: "+p.Name+" is granted already")
		case p.Request():
			out = append(out, "--request: asked macOS for "+p.Name+"; it is granted now")
		default:
			out = append(out, "--request: asked macOS to show its "+p.Name+" prompt; allow reprise there (or in "+
				p.Settings()+"), then restart reprise")
		}
	}
	return out
}

// Flags are what `reprise doctor` was asked for.
type Flags struct {
	// JSON prints the report as JSON rather than as text.
	JSON bool
	// Request first asks the system for each permission reprise lacks.
	Request bool
}

// Main runs `reprise doctor` with the probes for home (Probes): with
// f.Request it first asks for the permissions reprise lacks and says what
// it asked (to stdout before a text report; to stderr with JSON, so that
// stdout holds the report alone), then it runs the checks and writes the
// report to stdout.
func Main(ctx context.Context, f Flags, probes []Probe, stdout, stderr io.Writer) error {
	return run(ctx, f, runtime.GOOS, platformPermissions(), probes, stdout, stderr)
}

// run is Main for the system goos with its permissions perms.
func run(ctx context.Context, f Flags, goos string, perms []permission, probes []Probe, stdout, stderr io.Writer) error {
	if f.Request {
		notes := stdout
		if f.JSON {
			notes = stderr
		}
		for _, line := range requestPermissions(goos, perms) {
			if _, err := fmt.Fprintln(notes, line); err != nil {
				return err
			}
		}
	}
	r := Run(ctx, goos, probes)
	if f.JSON {
		return r.WriteJSON(stdout)
	}
	return r.WriteText(stdout)
}

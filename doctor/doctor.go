// Package doctor reports what this machine can do for reprise, and for each
// thing it cannot, why and what to do.
package doctor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"text/tabwriter"
	"time"
)

// Check is one capability and its state.
type Check struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	// Fix says what to do when OK is false.
	Fix string `json:"fix,omitempty"`
}

// Report is the result of every check.
type Report struct {
	OS     string  `json:"os"`
	Checks []Check `json:"checks"`
}

// Probe is one check that can run on this machine.
type Probe func(ctx context.Context) Check

// Run runs every probe with a bound on each, so a hung tool cannot hang doctor.
func Run(ctx context.Context, goos string, probes []Probe) Report {
	r := Report{OS: goos}
	for _, p := range probes {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		r.Checks = append(r.Checks, p(pctx))
		cancel()
	}
	return r
}

// WriteText prints the report for a person.
func (r Report) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "reprise doctor (%s)\n", r.OS)
	for _, c := range r.Checks {
		mark := "ok"
		if !c.OK {
			mark = "no"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", mark, c.Name, c.Detail)
		if !c.OK && c.Fix != "" {
			fmt.Fprintf(tw, "  \t\t-> %s\n", c.Fix)
		}
	}
	return tw.Flush()
}

// WriteJSON prints the report for a program.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// NotBuilt is a check for a capability this build does not have yet.
func NotBuilt(name string) Probe {
	return func(context.Context) Check {
		return Check{Name: name, Detail: "not built yet"}
	}
}

// firstTool finds the first of names on PATH and the version it prints:
// stdout's first line (a wrapper script's complaints go to stderr).
func firstTool(ctx context.Context, versionFlag string, names ...string) (path, version string, ok bool) {
	for _, n := range names {
		p, err := exec.LookPath(n)
		if err != nil {
			continue
		}
		out, err := exec.CommandContext(ctx, p, versionFlag).Output()
		if err != nil {
			return p, "", true
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		return p, line, true
	}
	return "", "", false
}

// Browser finds a Chromium-family browser the replay executor can drive.
func Browser(names ...string) Probe {
	return func(ctx context.Context) Check {
		c := Check{Name: "browser"}
		path, version, ok := firstTool(ctx, "--version", names...)
		if !ok {
			c.Detail = "no Chromium or Chrome found (looked for " + strings.Join(names, ", ") + ")"
			c.Fix = "install Chromium (Debian: apt-get install chromium) or Google Chrome"
			return c
		}
		c.OK, c.Detail = true, strings.TrimSpace(version+" at "+path)
		return c
	}
}

// OCR finds tesseract, the on-device text extractor.
func OCR() Probe {
	return func(ctx context.Context) Check {
		c := Check{Name: "ocr"}
		path, version, ok := firstTool(ctx, "--version", "tesseract")
		if !ok {
			c.Detail = "tesseract not found: steps without DOM or accessibility data cannot be read on this machine"
			c.Fix = "install tesseract (Debian: apt-get install tesseract-ocr tesseract-ocr-eng)"
			return c
		}
		if version == "" {
			c.Detail = "tesseract at " + path + " does not run"
			return c
		}
		c.OK, c.Detail = true, version+" at "+path
		return c
	}
}

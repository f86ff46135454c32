package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// runner runs reprise commands as the person would type them, printing
// each command and what it says.
type runner struct{ bin string }

func (r *runner) run(stdin io.Reader, args ...string) (string, error) {
	fmt.Printf("\n$ reprise %s\n", strings.Join(quoted(args), " "))
	cmd := exec.Command(r.bin, args...)
	var out bytes.Buffer
	cmd.Stdout = io.MultiWriter(os.Stdout, &out)
	cmd.Stderr = os.Stderr
	cmd.Stdin = stdin
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("reprise %s: %w", args[0], err)
	}
	return out.String(), nil
}

// show runs a command whose failure does not stop the demo.
func (r *runner) show(args ...string) {
	if _, err := r.run(nil, args...); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
	}
}

func quoted(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " \t") {
			a = "'" + a + "'"
		}
		out[i] = a
	}
	return out
}

// recordStart starts a browser recording, waiting for the extension's first
// hello after pairing (it says hello every 2 s).
func (r *runner) recordStart() (string, error) {
	args := []string{"record", "start", "--yes", "--channels", "browser"}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		var out, errs bytes.Buffer
		cmd := exec.Command(r.bin, args...)
		cmd.Stdout, cmd.Stderr = &out, &errs
		err := cmd.Run()
		if err == nil || !strings.Contains(errs.String(), "CHANNEL_UNAVAILABLE") || time.Now().After(deadline) {
			fmt.Printf("\n$ reprise %s\n%s", strings.Join(args, " "), out.String())
			os.Stderr.Write(errs.Bytes())
			if err != nil {
				return "", fmt.Errorf("reprise record start: %w", err)
			}
			return out.String(), nil
		}
	}
}

//go:build windows

// Command notepad opens notepad at a known place, so that a Linux-side test
// knows where to click in the Wine desktop, and writes a file once it is
// there. It returns when notepad exits.
//
//	notepad -at 100,80,600,400 -ready Z:\tmp\ready
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/reprise-dev/reprise/internal/wine"
)

func main() {
	at := flag.String("at", "100,80,600,400", "x,y,width,height of notepad's window")
	ready := flag.String("ready", "", "file to write once the window is in place")
	flag.Parse()
	var x, y, w, h int
	if _, err := fmt.Sscanf(*at, "%d,%d,%d,%d", &x, &y, &w, &h); err != nil {
		fail(fmt.Errorf("-at %q: want x,y,width,height: %w", *at, err))
	}
	cmd, _, err := wine.OpenNotepad(x, y, w, h)
	if err != nil {
		fail(err)
	}
	if *ready != "" {
		if err := os.WriteFile(*ready, []byte("ready\n"), 0o600); err != nil {
			_ = cmd.Process.Kill()
			fail(err)
		}
	}
	_ = cmd.Wait()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "notepad:", err)
	os.Exit(1)
}

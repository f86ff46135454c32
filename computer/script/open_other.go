//go:build !linux

package script

import (
	"fmt"
	"image"
	"runtime"
)

const backend = runtime.GOOS

// The clipboard is X11-only for now: a script here reads InputFailed.
func newClipboard(string) Clipboard { return nil }

func displays(string) ([]image.Rectangle, error) {
	return nil, fmt.Errorf("the display list is not built for %s yet", runtime.GOOS)
}

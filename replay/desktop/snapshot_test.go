package desktop

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshotSavesTheScreenPrivately: the first-run check's snapshot of a
// desktop row (issue 33: the desktop saved none) is the screen as a PNG
// readable by its owner only; without a screen it says so.
func TestSnapshotSavesTheScreenPrivately(t *testing.T) {
	screen := image.NewRGBA(image.Rect(0, 0, 40, 30))
	screen.Set(7, 9, color.RGBA{R: 200, A: 255})
	ex, err := New(Options{Input: &personInput{}, Screen: func() (image.Image, error) { return screen, nil }})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run-row-1.png")
	if err := os.WriteFile(path, nil, 0o644); err != nil { // a file left by an earlier run
		t.Fatal(err)
	}
	if err := ex.Snapshot(context.Background(), path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds() != screen.Bounds() || !sameColor(img.At(7, 9), screen.At(7, 9)) {
		t.Fatalf("the snapshot is not the screen: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("the snapshot's mode is %v; want 0600 (it shows the row's values)", fi.Mode().Perm())
	}

	blind, err := New(Options{Input: &personInput{}})
	if err != nil {
		t.Fatal(err)
	}
	if err := blind.Snapshot(context.Background(), filepath.Join(t.TempDir(), "x.png")); err == nil {
		t.Error("a snapshot without a screen to grab succeeded")
	}
}

func sameColor(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}

package flock

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestTakeRefusesASecondHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "profile.lock")
	first, err := Take(path, "run run_1 (pid 10)")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Take(path, "run run_2 (pid 11)")
	if !errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), "run run_1 (pid 10)") {
		t.Fatalf("second Take = %v; want ErrHeld naming the first holder", err)
	}
	first.Release()
	second, err := Take(path, "run run_2 (pid 11)")
	if err != nil {
		t.Fatalf("Take after Release = %v", err)
	}
	second.Release()
	second.Release() // twice is harmless
}

// A deleted lock file does not let a second holder in while the first
// holds the directory.
func TestTakeDirHoldsWhenTheLockFileIsDeleted(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: Windows refuses to delete a held lock file; TakeDir adds nothing there")
	}
	dir := t.TempDir()
	first, err := TakeDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TakeDir(dir); !errors.Is(err, ErrHeld) {
		t.Fatalf("second TakeDir = %v; want ErrHeld", err)
	}
	first.Release()
	second, err := TakeDir(dir)
	if err != nil {
		t.Fatalf("TakeDir after Release = %v", err)
	}
	second.Release()
}

package flock

import (
	"errors"
	"path/filepath"
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

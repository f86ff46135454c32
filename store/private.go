package store

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Loose lists what under the data dir other users could read or enter: the
// dir itself, its keys/ dir and the key files in it, whose modes must give
// nothing to group or others. Nil on Windows, where a user's profile is
// private by its ACL and modes say nothing.
func Loose(home string) []string {
	if runtime.GOOS == "windows" {
		return nil
	}
	var loose []string
	check := func(path string) {
		if fi, err := os.Lstat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			loose = append(loose, fmt.Sprintf("%s (mode %v)", path, fi.Mode().Perm()))
		}
	}
	check(home)
	keys := filepath.Join(home, "keys")
	check(keys)
	entries, _ := os.ReadDir(keys)
	for _, e := range entries {
		check(filepath.Join(keys, e.Name()))
	}
	return loose
}

// Tighten makes the data dir, its keys/ dir and key files private to their
// owner (0700 dirs, 0600 files), and returns what it changed.
func Tighten(home string) ([]string, error) {
	loose := Loose(home)
	if len(loose) == 0 {
		return nil, nil
	}
	fix := func(path string) error {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode().Perm()&0o077 == 0 || fi.Mode()&fs.ModeSymlink != 0 {
			return nil
		}
		mode := fs.FileMode(0o600)
		if fi.IsDir() {
			mode = 0o700
		}
		return os.Chmod(path, mode)
	}
	keys := filepath.Join(home, "keys")
	paths := []string{home, keys}
	entries, _ := os.ReadDir(keys)
	for _, e := range entries {
		paths = append(paths, filepath.Join(keys, e.Name()))
	}
	for _, p := range paths {
		if err := fix(p); err != nil {
			return loose, fmt.Errorf("make %s private: %w", p, err)
		}
	}
	return loose, nil
}

package rows

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// MaxUploadBytes bounds each file an upload step gives a page: a larger one
// is more likely a wrong cell than a form's attachment.
const MaxUploadBytes = 50 << 20

// ErrNoFolder is returned for a relative path when there is no folder to
// read it under.
var ErrNoFolder = errors.New("a relative path needs the CSV's folder")

// ResolveFiles turns an upload cell into the files it names, each once, in
// order: one path or glob per line, a relative one under dir (the CSV's
// folder) and a leading ~ the home folder; a glob's matches sorted, at
// least one. A file that is missing, a folder, not a regular file or over
// MaxUploadBytes is an error before any page is touched. Errors number the
// entries and never quote a name: a file's name is the row's data.
func ResolveFiles(cell, dir string) ([]string, error) {
	var files []string
	seen := map[string]bool{}
	n := 0
	for line := range strings.Lines(cell) {
		entry := strings.TrimSpace(line)
		if entry == "" {
			continue
		}
		n++
		path, err := absolute(entry, dir)
		if err != nil {
			return nil, fmt.Errorf("file %d: %w", n, err)
		}
		matches := []string{path}
		if strings.ContainsAny(entry, "*?[") {
			if matches, err = filepath.Glob(path); err != nil {
				return nil, fmt.Errorf("file %d: the pattern is malformed", n)
			}
			if len(matches) == 0 {
				return nil, fmt.Errorf("file %d: the pattern matches no file", n)
			}
		}
		for _, m := range matches {
			if err := checkUpload(m); err != nil {
				return nil, fmt.Errorf("file %d: %w", n, err)
			}
			if !seen[m] {
				seen[m] = true
				files = append(files, m)
			}
		}
	}
	if len(files) == 0 {
		return nil, errors.New("names no file")
	}
	return files, nil
}

func absolute(p, dir string) (string, error) {
	if rest, ok := strings.CutPrefix(p, "~"); ok && (rest == "" || rest[0] == '/' || rest[0] == filepath.Separator) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no home folder for ~: %w", err)
		}
		return filepath.Join(home, rest), nil
	}
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if dir == "" {
		return "", ErrNoFolder
	}
	return filepath.Join(dir, p), nil
}

func checkUpload(path string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return errors.New("does not exist")
	case err != nil:
		return errors.New("cannot be read")
	case fi.IsDir():
		return errors.New("is a folder, not a file")
	case !fi.Mode().IsRegular():
		return errors.New("is not a regular file")
	case fi.Size() > MaxUploadBytes:
		return fmt.Errorf("is larger than %d MB", MaxUploadBytes>>20)
	}
	return nil
}

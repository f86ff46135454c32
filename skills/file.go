package skills

import (
	"fmt"
	"io"
	"os"
)

// ReadFile reads and parses the skill file at path, refusing one over
// MaxDocument before reading further: a device or a pipe has no size to
// stat, and /dev/zero never ends. A refusal of Parse names the file.
func ReadFile(path string) (*Skill, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	doc, err := io.ReadAll(io.LimitReader(f, MaxDocument+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(doc) > MaxDocument {
		return nil, nil, fmt.Errorf("%s is over %d bytes, more than such a file ever holds", path, MaxDocument)
	}
	s, err := Parse(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, doc, nil
}

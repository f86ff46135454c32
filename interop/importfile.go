package interop

import (
	"fmt"
	"io"
	"os"
)

// ImportFile reads the file at path, at most MaxFile bytes (a device or a
// pipe has no size to stat, and /dev/zero never ends), and imports its
// flows (Import), each naming the file. A refusal names the file.
func ImportFile(path string) ([]Flow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFile+1))
	if err != nil {
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	if len(data) > MaxFile {
		return nil, fmt.Errorf("import %s: %s is over %d bytes, more than such a file ever holds", path, path, MaxFile)
	}
	flows, err := Import(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range flows {
		flows[i].File = path
	}
	return flows, nil
}

// WriteImported says that f was kept as recording id, of steps steps,
// under its file and title, with its notes: what `skill import` prints for
// each flow.
func (f Flow) WriteImported(out io.Writer, id string, steps int) {
	title := ""
	if f.Title != "" {
		title = fmt.Sprintf(" (%q)", f.Title)
	}
	fmt.Fprintf(out, "imported %s%s as %s: %d steps\n", f.File, title, id, steps)
	for _, n := range f.Notes {
		fmt.Fprintf(out, "  note: %s\n", n)
	}
}

package extension

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

// subjectLiteral is a quoted string in a subject space of the daemon's.
var subjectLiteral = regexp.MustCompile(`["'` + "`" + `](ingest\.|_INBOX|local\.|\$JS\.|\$SRV\.|rec\.|capture\.|run\.|audit\.|shim\.)`)

// TestSubjectsOnlyFromEvents: the extension names the daemon's subjects
// only through subjects.js, which internal/codegen writes from package
// events (and whose test holds it up to date), so a subject renamed there
// cannot leave the extension speaking the old one.
func TestSubjectsOnlyFromEvents(t *testing.T) {
	err := fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") || path == "subjects.js" {
			return err
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if subjectLiteral.MatchString(line) {
				t.Errorf("%s:%d spells a subject: import it from subjects.js instead: %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sw, err := files.ReadFile("sw.js")
	if err != nil {
		t.Fatal(err)
	}
	subjects, err := files.ReadFile("subjects.js")
	if err != nil {
		t.Fatalf("subjects.js is not embedded: %v", err)
	}
	for _, name := range []string{"HELLO", "STEP", "FRAME", "INBOX_PREFIX"} {
		if !strings.Contains(string(subjects), "export const "+name+" = ") {
			t.Errorf("subjects.js exports no %s", name)
		}
	}
	if !strings.Contains(string(sw), `import { HELLO, STEP, FRAME, INBOX_PREFIX } from "./subjects.js";`) {
		t.Error("sw.js does not import its subjects from subjects.js")
	}
}

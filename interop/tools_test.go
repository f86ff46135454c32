package interop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/internal/chromium"
	"github.com/reprise-dev/reprise/interop/interoptest"
	"github.com/reprise-dev/reprise/skills"
)

// needNode finds node, module and Chromium for the round trips, or skips
// naming what is missing: scripts/deps installs them all.
func needNode(t *testing.T, module string) interoptest.Node {
	t.Helper()
	chrome, err := chromium.FindHeadless()
	if err != nil {
		t.Skipf("SKIP: no Chromium: %v (scripts/deps installs it)", err)
	}
	return interoptest.NeedNode(t, module, chrome)
}

// exportDir is a folder holding testdata/export/customers.csv and files.
func exportDir(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	csv, err := os.ReadFile(filepath.Join("testdata", "export", "customers.csv"))
	if err != nil {
		t.Fatal(err)
	}
	files["customers.csv"] = csv
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// exportSkill reads testdata/export/customer.yaml for the site at base.
func exportSkill(t *testing.T, base string) *skills.Skill {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "export", "customer.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := skills.Parse([]byte(strings.ReplaceAll(string(b), "{{base}}", base)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// exportRows are testdata/export/customers.csv as the site must hold them.
var exportRows = []map[string]string{
	{"first_name": "Ada", "email": "ada@example.test", "plan": "basic", "newsletter": "yes", "note": "Met at the fair, twice"},
	{"first_name": "Grace", "email": "grace@example.test", "plan": "ent", "newsletter": "", "note": ""},
	{"first_name": "Linus", "email": "linus@example.test", "plan": "pro", "newsletter": "yes", "note": "50% off"},
}

package rows

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/reprise-dev/reprise/skills"
)

// secret is a distinctive value: no error may ever contain it.
const secret = "Zyzzyva7731"

func testSkill() *skills.Skill {
	return &skills.Skill{
		Name: "new customer",
		Parameters: []skills.Parameter{
			{Name: "name", Column: "Name", Type: "text"},
			{Name: "email", Column: "E-mail", Type: "email"},
			{Name: "amount", Column: "Amount", Type: "number"},
			{Name: "due", Column: "Due date", Type: "date"},
		},
		DedupeKey: []string{"email"},
	}
}

func TestReadGood(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Row
	}{
		{"plain", "Name,E-mail,Amount,Due date\nAnn,ann@example.com,1,2025-01-02\n",
			[]Row{{N: 1, Line: 2, Values: map[string]string{"name": "Ann", "email": "ann@example.com", "amount": "1", "due": "2025-01-02"}}}},
		{"bom, crlf, extra column, order", "\ufeffExtra,Due date,Amount,E-mail,Name\r\nx,2025-01-02,\"1,234.5\",b@example.com,Bo\r\n",
			[]Row{{N: 1, Line: 2, Values: map[string]string{"name": "Bo", "email": "b@example.com", "amount": "1,234.5", "due": "2025-01-02"}}}},
		{"quoted newline and comma", "Name,E-mail,Amount,Due date\n\"Ann\nSmith, Jr\",a@example.com,1,2025-01-02\nBo,b@example.com,2,2025-01-03\n",
			[]Row{
				{N: 1, Line: 2, Values: map[string]string{"name": "Ann\nSmith, Jr", "email": "a@example.com", "amount": "1", "due": "2025-01-02"}},
				{N: 2, Line: 4, Values: map[string]string{"name": "Bo", "email": "b@example.com", "amount": "2", "due": "2025-01-03"}},
			}},
		{"blank records skipped but counted, header and cells trimmed", " Name , E-mail,Amount,Due date\n,,,\n\n  Cy ,c@example.com,3,2025-01-04",
			[]Row{{N: 2, Line: 4, Values: map[string]string{"name": "Cy", "email": "c@example.com", "amount": "3", "due": "2025-01-04"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tt.in), "rows.csv", testSkill())
			if err != nil {
				t.Fatalf("Read(%q) error: %v", tt.in, err)
			}
			if !reflect.DeepEqual(got.Rows, tt.want) {
				t.Errorf("Read(%q).Rows = %+v; want %+v", tt.in, got.Rows, tt.want)
			}
		})
	}
}

func TestReadBad(t *testing.T) {
	const head = "Name,E-mail,Amount,Due date\n"
	s := secret
	tests := []struct {
		name, in string
		want     error
		says     []string // substrings the error must hold
	}{
		{"empty", "", ErrEmpty, []string{"header row", `"E-mail"`}},
		{"only bom and blank lines", "\ufeff\n\n", ErrEmpty, nil},
		{"header only", head, ErrNoRows, []string{"no row"}},
		{"header and blank records", head + ",,,\n", ErrNoRows, nil},
		{"missing column", "Name,Email,Amount,Due date\n" + s + ",a,1,2\n", skills.ErrMissingColumn, []string{`"E-mail"`, `"Email"`}},
		{"duplicate header", "Name,E-mail,Amount,Due date,Name\n", ErrHeader, []string{"columns 1 and 5", `"Name"`}},
		{"blank header", "Name,,E-mail,Amount,Due date\n", ErrHeader, []string{"column 2"}},
		{"ragged short", head + s + ",a@b.c,1\n", ErrFormat, []string{"line 2", "3 fields", "has 4"}},
		{"ragged long", head + "a,b,c,d\n" + s + ",a@b.c,1,2,3\n", ErrFormat, []string{"line 3", "row 2"}},
		{"unbalanced quote", head + "\"" + s + ",a,1,2\n", ErrFormat, []string{"line 2", "not closed"}},
		{"bare quote", head + s + "\"x,a,1,2\n", ErrFormat, []string{"line 2", "double quotes"}},
		{"invalid utf-8", head + "ok,a,1,2\n\"" + s + "\n\xff\",a,1,2\n", ErrBadCell, []string{"line 4", "UTF-8"}},
		{"nul byte", head + s + "\x00,a,1,2\n", ErrBadCell, []string{"line 2", "NUL byte"}},
		{"utf-16", "\xff\xfeN\x00a\x00", ErrBadCell, []string{"UTF-16"}},
		{"huge cell", head + strings.Repeat("x", MaxFieldSize+1) + ",a,1,2\n", ErrTooBig, []string{"line 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "rows.csv", testSkill())
			if !errors.Is(err, tt.want) {
				t.Fatalf("Read(%.40q) = %v; want %v", tt.in, err, tt.want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "rows.csv: ") {
				t.Errorf("error %q does not name the file", msg)
			}
			if strings.Contains(msg, secret) {
				t.Errorf("error %q holds a cell value", msg)
			}
			for _, w := range tt.says {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
		})
	}
}

func TestReadTooManyRows(t *testing.T) {
	var b strings.Builder
	b.WriteString("Name,E-mail,Amount,Due date\n")
	for range MaxRows + 1 {
		b.WriteString("a,b,c,d\n")
	}
	_, err := Read(strings.NewReader(b.String()), "big.csv", testSkill())
	if !errors.Is(err, ErrTooBig) {
		t.Fatalf("Read(%d rows) = %v; want %v", MaxRows+1, err, ErrTooBig)
	}
}

// endless is a file that never ends, as /dev/zero or a pipe left open.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

func TestReadEndlessInput(t *testing.T) {
	for _, in := range []io.Reader{
		endless(0),
		io.MultiReader(strings.NewReader("Name,E-mail,Amount,Due date\n\""), endless('x')),
	} {
		_, err := Read(in, "rows.csv", testSkill())
		if !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "line is over") {
			t.Errorf("Read(endless) = %v; want refused as too big", err)
		}
	}
}

func TestOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rows.csv")
	if err := os.WriteFile(path, []byte("Name,E-mail,Amount,Due date\nA,a@example.com,1,2025-01-01\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tab, err := Open(path, testSkill())
	if err != nil || len(tab.Rows) != 1 {
		t.Fatalf("Open(%q) = %v, %v; want 1 row", path, tab, err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none.csv"), testSkill()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(missing) = %v; want %v", err, os.ErrNotExist)
	}
}

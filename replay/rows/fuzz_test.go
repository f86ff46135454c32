package rows

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func FuzzRead(f *testing.F) {
	for _, seed := range []string{
		"",
		"Name,E-mail,Amount,Due date\n",
		"\ufeffName,E-mail,Amount,Due date\r\nA,a@x.io,\"1,234\",2025-01-01\r\n",
		"Name,E-mail,Amount,Due date\n\"A\nB\",a@x.io,1,2025-01-01\n,,,\n",
		"Name,E-mail,Amount,Due date\n\"A,a,1,2\n",
		"Name,E-mail,Amount,Due date,Name\n",
		"Name,E-mail,Amount,Due date\nA\xff,a,1,2\n",
		"\xff\xfeN\x00",
	} {
		f.Add(seed)
	}
	skill := testSkill()
	f.Fuzz(func(t *testing.T, in string) {
		tab, err := Read(strings.NewReader(in), "fuzz.csv", skill)
		if err != nil {
			if tab != nil {
				t.Fatalf("Read(%q) = %v and a table", in, err)
			}
			return
		}
		if len(tab.Rows) == 0 {
			t.Fatalf("Read(%q) returned no rows and no error", in)
		}
		prev := 0
		for _, r := range tab.Rows {
			if r.N <= prev || r.Line < 2 || len(r.Values) != len(skill.Parameters) {
				t.Fatalf("Read(%q) row %+v after row %d", in, r, prev)
			}
			prev = r.N
			for _, v := range r.Values {
				if !utf8.ValidString(v) || strings.ContainsRune(v, 0) {
					t.Fatalf("Read(%q) kept a cell that is not clean UTF-8", in)
				}
			}
			_ = r.Check(skill)
			if _, err := DedupeKey(salt, skill, r); err != nil {
				t.Fatalf("DedupeKey() error: %v", err)
			}
		}
		_ = tab.Fingerprint()
	})
}

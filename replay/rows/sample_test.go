package rows

import (
	"strings"
	"testing"
)

func TestReadSample(t *testing.T) {
	t.Parallel()
	header, rows, err := ReadSample(strings.NewReader("\ufeffFirst Name, Email \nAda,ada@example.org\nGrace,grace@example.org\n"), "s.csv")
	if err != nil || len(header) != 2 || header[0] != "First Name" || header[1] != "Email" || len(rows) != 2 {
		t.Fatalf("got %q %q %v", header, rows, err)
	}
	var many strings.Builder
	many.WriteString("a\n")
	for range 2 * SampleRows {
		many.WriteString("x\n")
	}
	if _, rows, err := ReadSample(strings.NewReader(many.String()), "s.csv"); err != nil || len(rows) != SampleRows {
		t.Fatalf("a long CSV gave %d rows, %v; want the first %d", len(rows), err, SampleRows)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"a,,c\n", "column 2 has no name"},
		{"a,b,a\n", "appears twice"},
		{"a,b\n1,2,3\n", "line 2"},
		{"a,b\n\"secret-value,2\n", "line 2"},
	} {
		_, _, err := ReadSample(strings.NewReader(tc.in), "s.csv")
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "secret-value") {
			t.Errorf("ReadSample(%q) = %v; want an error saying %q, without the value", tc.in, err, tc.want)
		}
	}
}

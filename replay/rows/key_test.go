package rows

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

var salt = bytes.Repeat([]byte{7}, MinSaltSize)

func row(vals ...string) Row {
	return Row{N: 1, Line: 2, Values: map[string]string{"name": vals[0], "email": vals[1], "amount": vals[2], "due": vals[3]}}
}

func TestDedupeKey(t *testing.T) {
	s := testSkill()
	key := func(salt []byte, r Row) string {
		t.Helper()
		k, err := DedupeKey(salt, s, r)
		if err != nil {
			t.Fatalf("DedupeKey() error: %v", err)
		}
		return k
	}
	a := key(salt, row("Ann", "ann@example.com", "1", "2025-01-01"))
	if len(a) != 64 || strings.Contains(a, "ann") {
		t.Errorf("DedupeKey() = %q; want 64 hex digits", a)
	}
	// Only the dedupe_key parameter counts, trimmed and case-folded for emails.
	if b := key(salt, row("Other", " ANN@example.com ", "2", "2025-01-02")); b != a {
		t.Errorf("DedupeKey(same email) = %q; want %q", b, a)
	}
	if b := key(salt, row("Ann", "bob@example.com", "1", "2025-01-01")); b == a {
		t.Errorf("DedupeKey(other email) = %q; want a different key", b)
	}
	other := bytes.Repeat([]byte{8}, MinSaltSize)
	if b := key(other, row("Ann", "ann@example.com", "1", "2025-01-01")); b == a {
		t.Errorf("DedupeKey(other salt) = %q; want a different key", b)
	}
	renamed := *s
	renamed.Name = "other skill"
	if b, _ := DedupeKey(salt, &renamed, row("Ann", "ann@example.com", "1", "2025-01-01")); b == a {
		t.Errorf("DedupeKey(other skill) = %q; want a different key", b)
	}

	// With no dedupe_key every parameter counts, and no value can run into the next.
	all := *s
	all.DedupeKey = nil
	x, _ := DedupeKey(salt, &all, row("a\x00", "b", "1", "2"))
	y, _ := DedupeKey(salt, &all, row("a", "\x00b", "1", "2"))
	z, _ := DedupeKey(salt, &all, row("a\x00", "b", "1", "3"))
	if x == y || x == z {
		t.Errorf("DedupeKey() collides: %q %q %q", x, y, z)
	}

	if _, err := DedupeKey(salt[:MinSaltSize-1], s, row("a", "b", "c", "d")); !errors.Is(err, ErrSalt) {
		t.Errorf("DedupeKey(short salt) = %v; want %v", err, ErrSalt)
	}
	bad := *s
	bad.DedupeKey = []string{"nope"}
	if _, err := DedupeKey(salt, &bad, row("a", "b", "c", "d")); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("DedupeKey(unknown parameter) = %v; want an error naming it", err)
	}
}

func TestFingerprint(t *testing.T) {
	read := func(in string) string {
		t.Helper()
		tab, err := Read(strings.NewReader(in), "f.csv", testSkill())
		if err != nil {
			t.Fatalf("Read(%q) error: %v", in, err)
		}
		return tab.Fingerprint()
	}
	const head = "Name,E-mail,Amount,Due date\n"
	base := read(head + "A,a@x.io,1,2025-01-01\nB,b@x.io,2,2025-01-02\n")
	if len(base) != 64 {
		t.Errorf("Fingerprint() = %q; want 64 hex digits", base)
	}
	if got := read("\ufeff" + strings.ReplaceAll(head+"A,a@x.io,1,2025-01-01\nB,b@x.io,2,2025-01-02\n", "\n", "\r\n")); got != base {
		t.Errorf("Fingerprint(CRLF, BOM) = %q; want %q", got, base)
	}
	for _, in := range []string{
		head + "B,b@x.io,2,2025-01-02\nA,a@x.io,1,2025-01-01\n",                       // reordered
		head + "A,a@x.io,1,2025-01-01\nB,b@x.io,3,2025-01-02\n",                       // one value changed
		head + "A,a@x.io,1,2025-01-01\n",                                              // a row dropped
		"Due date,Name,E-mail,Amount\n2025-01-01,A,a@x.io,1\n2025-01-02,B,b@x.io,2\n", // columns moved
	} {
		if got := read(in); got == base {
			t.Errorf("Fingerprint(%q) = the base fingerprint; want a different one", in)
		}
	}
}

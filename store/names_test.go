package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestDataKeyName(t *testing.T) {
	long := strings.Repeat("a", 200)
	sum := sha256.Sum256([]byte(long))
	sum42 := sha256.Sum256([]byte(strings.Repeat("A", 42)))
	for _, tc := range []struct{ id, want string }{
		{"rec_0a1b2c3d-0000-4000-8000-000000000001", "data-rec_0a1b2c3d-0000-4000-8000-000000000001"},
		{"rec_ABC", "data-rec_.41.42.43"},
		{"a.b", "data-a.2eb"},
		{"../x", "data-.2e.2e.2fx"},
		{"", "data-"},
		{long[:123], "data-" + long[:123]},
		{long, "data-.." + hex.EncodeToString(sum[:])},
		{strings.Repeat("A", 41), "data-" + strings.Repeat(".41", 41)},
		{strings.Repeat("A", 42), "data-.." + hex.EncodeToString(sum42[:])},
	} {
		got := DataKeyName(tc.id)
		if got != tc.want {
			t.Errorf("DataKeyName(%q) = %q; want %q", tc.id, got, tc.want)
		}
		if err := checkKeyName(got); err != nil {
			t.Errorf("DataKeyName(%q) = %q, not a valid key name: %v", tc.id, got, err)
		}
	}
	for _, n := range []string{ConsentSigningKey, AuditChainKey} {
		if err := checkKeyName(n); err != nil {
			t.Errorf("%q is not a valid key name: %v", n, err)
		}
	}
}

// Distinct ids give distinct names, or erasing one recording would erase
// another's key.
func TestDataKeyNameDistinct(t *testing.T) {
	ids := []string{
		"rec_a", "rec_A", "rec_.41", "rec_.2e", "rec_.", "rec__", "rec_-",
		"a.b", "a.2eb", "a_b", "a-b", "A", "a", ".41", "..", "", ".",
		strings.Repeat("a", 123), strings.Repeat("a", 124), strings.Repeat("A", 60), strings.Repeat("A", 61),
	}
	seen := make(map[string]string)
	for _, id := range ids {
		n := DataKeyName(id)
		if prev, ok := seen[n]; ok {
			t.Errorf("DataKeyName(%q) = DataKeyName(%q) = %q", id, prev, n)
		}
		seen[n] = id
	}
}

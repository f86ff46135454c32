package rows

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"slices"
	"strings"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/skills"
)

// MinSaltSize is the shortest salt DedupeKey takes: the salt is what keeps
// a key from being matched against a list of likely emails.
const MinSaltSize = 16

// ErrSalt is returned by DedupeKey for a missing or short salt.
var ErrSalt = errors.New("dedupe salt too short")

// Fingerprint is the hex SHA-256 of the header and of every row's number
// and values, so a resumed run can tell it was handed the same rows. Only
// what the run uses counts: columns no parameter reads, blank lines and
// line breaks do not change it.
func (t *Table) Fingerprint() string {
	h := sha256.New()
	writeUint(h, len(t.Header)) // counts first, so the header cannot run into a row
	writeStrings(h, t.Header...)
	writeUint(h, len(t.Rows))
	for _, r := range t.Rows {
		writeUint(h, r.N)
		writeUint(h, len(r.Values))
		names := make([]string, 0, len(r.Values))
		for k := range r.Values {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			writeStrings(h, k, r.Values[k])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// DedupeKey is the key that identifies row r of skill in the run's log
// (SPEC 11): the hex HMAC-SHA256, under salt, of the skill's name and the
// values of its DedupeKey parameters, or of every parameter when it names
// none. Values are trimmed and emails lower-cased, so the same person typed
// twice is one row.
//
// A bare hash of an email is reversed by hashing a list of emails, and the
// key goes to the log, so it is keyed: the caller keeps salt (at least
// MinSaltSize random bytes) with the run, secret, and passes the same one
// when the run resumes, or every row looks new.
func DedupeKey(salt []byte, skill *skills.Skill, r Row) (string, error) {
	if len(salt) < MinSaltSize {
		return "", fmt.Errorf("%w: it has %d bytes, it needs %d", ErrSalt, len(salt), MinSaltSize)
	}
	names := skill.DedupeKey
	if len(names) == 0 {
		for _, p := range skill.Parameters {
			names = append(names, p.Name)
		}
	}
	types := make(map[string]string, len(skill.Parameters))
	for _, p := range skill.Parameters {
		types[p.Name] = p.Type
	}
	m := hmac.New(sha256.New, salt)
	writeStrings(m, skill.Name)
	for _, name := range names {
		t, ok := types[name]
		if !ok {
			return "", fmt.Errorf("dedupe key: %s is not a parameter of skill %q: fix the skill's dedupe_key", name, skill.Name)
		}
		v := strings.TrimSpace(r.Values[name])
		if t == events.ValueEmail {
			v = strings.ToLower(v)
		}
		writeStrings(m, v)
	}
	return hex.EncodeToString(m.Sum(nil)), nil
}

// writeStrings writes each string length-prefixed rather than 0-separated,
// so no value, whatever bytes it holds, can shift into its neighbour.
func writeStrings(h hash.Hash, ss ...string) {
	for _, s := range ss {
		writeUint(h, len(s))
		h.Write([]byte(s))
	}
}

func writeUint(h hash.Hash, n int) {
	var b [binary.MaxVarintLen64]byte
	h.Write(b[:binary.PutUvarint(b[:], uint64(n))])
}

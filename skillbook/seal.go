package skillbook

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/reprise-dev/reprise/store"
)

// A skill holds what its demonstrations showed: constant values, option
// lists, URLs. It is sealed at rest like a recording, with a key of the
// data dir's own, and bound to its key in the bucket so a sealed skill
// moved to another name does not open.
//
// RSK2 seals a version's number with its document (8 bytes, big-endian,
// then the YAML): the number counts the skill's own saves from 1, and
// cannot be changed without the key. RSK1, and a value without a prefix,
// are read as they were written, without a number.
var (
	sealedMagic   = []byte("RSK2")
	sealedMagicV1 = []byte("RSK1")
)

// ErrDamaged is returned for a stored skill that does not open: a changed
// byte, another data dir's key, or a value moved to another skill's key.
var ErrDamaged = errors.New("stored skill does not open (damaged, or sealed with another data dir's key)")

type sealer struct{ aead *store.AEAD }

func newSealer(key []byte) (*sealer, error) {
	a, err := store.NewAEAD(key)
	if err != nil {
		return nil, fmt.Errorf("skill book key: %w", err)
	}
	return &sealer{aead: a}, nil
}

func additionalData(kvKey string) []byte { return []byte("reprise skill " + kvKey) }

// seal seals doc as version rev of the value at kvKey (0: no number, for
// what is not a saved version).
func (s *sealer) seal(kvKey string, rev uint64, doc []byte) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), len(sealedMagic)+s.aead.NonceSize()+8+len(doc)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("seal skill %s: %w", kvKey, err)
	}
	plain := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(doc)), rev)
	out := append(append([]byte{}, sealedMagic...), nonce...)
	return s.aead.Seal(out, nonce, append(plain, doc...), additionalData(kvKey)), nil
}

// open returns a stored value's version number (0 when it has none) and
// document. A value without a sealed prefix was saved before skills were
// sealed and is read as it is.
func (s *sealer) open(kvKey string, value []byte) (uint64, []byte, error) {
	v2 := bytes.HasPrefix(value, sealedMagic)
	if !v2 && !bytes.HasPrefix(value, sealedMagicV1) {
		return 0, value, nil
	}
	rest := value[len(sealedMagic):]
	if len(rest) < s.aead.NonceSize()+s.aead.Overhead() {
		return 0, nil, fmt.Errorf("skill %s: %w", kvKey, ErrDamaged)
	}
	doc, err := s.aead.Open(nil, rest[:s.aead.NonceSize()], rest[s.aead.NonceSize():], additionalData(kvKey))
	if err != nil || (v2 && len(doc) < 8) {
		return 0, nil, fmt.Errorf("skill %s: %w", kvKey, ErrDamaged)
	}
	if !v2 {
		return 0, doc, nil
	}
	return binary.BigEndian.Uint64(doc), doc[8:], nil
}

package skillbook

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"

	"github.com/reprise-dev/reprise/store"
)

// A skill holds what its demonstrations showed: constant values, option
// lists, URLs. It is sealed at rest like a recording, with a key of the
// data dir's own, and bound to its key in the bucket so a sealed skill
// moved to another name does not open.
var sealedMagic = []byte("RSK1")

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

func (s *sealer) seal(kvKey string, doc []byte) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize(), len(sealedMagic)+s.aead.NonceSize()+len(doc)+s.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("seal skill %s: %w", kvKey, err)
	}
	out := append(append([]byte{}, sealedMagic...), nonce...)
	return s.aead.Seal(out, nonce, doc, additionalData(kvKey)), nil
}

// open returns a stored value's document. A value without the sealed
// prefix was saved before skills were sealed and is read as it is.
func (s *sealer) open(kvKey string, value []byte) ([]byte, error) {
	if !bytes.HasPrefix(value, sealedMagic) {
		return value, nil
	}
	rest := value[len(sealedMagic):]
	if len(rest) < s.aead.NonceSize()+s.aead.Overhead() {
		return nil, fmt.Errorf("skill %s: %w", kvKey, ErrDamaged)
	}
	doc, err := s.aead.Open(nil, rest[:s.aead.NonceSize()], rest[s.aead.NonceSize():], additionalData(kvKey))
	if err != nil {
		return nil, fmt.Errorf("skill %s: %w", kvKey, ErrDamaged)
	}
	return doc, nil
}

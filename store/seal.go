package store

import (
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"

	"golang.org/x/crypto/chacha20poly1305"
)

// DataKeySize is the length of a recording's data key in bytes.
const DataKeySize = chacha20poly1305.KeySize

// ErrNotAuthentic is returned when sealed data does not open: a wrong key, a
// changed or cut byte, or a message moved to another recording, position or
// kind. The cases are deliberately indistinguishable.
var ErrNotAuthentic = errors.New("sealed data failed authentication")

// AEAD is XChaCha20-Poly1305, the one cipher reprise seals content with
// (SPEC section 7). Its 24-byte nonces are safe to draw at random for as many
// messages as a key will ever seal. It is safe for concurrent use.
type AEAD struct {
	aead cipher.AEAD
}

var _ cipher.AEAD = (*AEAD)(nil)

// NewAEAD returns the AEAD for a DataKeySize-byte key.
func NewAEAD(key []byte) (*AEAD, error) {
	if len(key) != DataKeySize {
		return nil, fmt.Errorf("data key: want %d bytes, got %d", DataKeySize, len(key))
	}
	a, err := chacha20poly1305.NewX(key)
	if err != nil {
		return nil, fmt.Errorf("data key: %w", err)
	}
	return &AEAD{aead: a}, nil
}

// NonceSize implements cipher.AEAD: 24 bytes.
func (a *AEAD) NonceSize() int { return a.aead.NonceSize() }

// Overhead implements cipher.AEAD: the 16-byte Poly1305 tag.
func (a *AEAD) Overhead() int { return a.aead.Overhead() }

// Seal implements cipher.AEAD.
func (a *AEAD) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	return a.aead.Seal(dst, nonce, plaintext, additionalData)
}

// Open implements cipher.AEAD; its only error is ErrNotAuthentic.
func (a *AEAD) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	out, err := a.aead.Open(dst, nonce, ciphertext, additionalData)
	if err != nil {
		return nil, ErrNotAuthentic
	}
	return out, nil
}

// NewDataKey returns a fresh random data key for one recording.
func NewDataKey() ([]byte, error) {
	key := make([]byte, DataKeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("new data key: %w", err)
	}
	return key, nil
}

// adDomain starts every additional data, so a sealed recording message can
// never be mistaken for anything else sealed with the same key.
const adDomain = "reprise/seal/v1\x00"

// Sealer seals and opens one recording's content under its data key. The
// additional data binds the recording id, the sequence number and the kind
// ("step", "frame", "event", ...), so a sealed message copied to another
// recording, position or kind does not open. It is safe for concurrent use.
type Sealer struct {
	aead  *AEAD
	recID string
	ad    []byte // adDomain and the length-prefixed recording id
}

// NewSealer returns the Sealer for recording recID under key.
func NewSealer(key []byte, recID string) (*Sealer, error) {
	if recID == "" {
		return nil, errors.New("new sealer: empty recording id")
	}
	a, err := NewAEAD(key)
	if err != nil {
		return nil, fmt.Errorf("new sealer for %s: %w", recID, err)
	}
	ad := append([]byte(adDomain), binary.BigEndian.AppendUint32(nil, uint32(len(recID)))...)
	ad = append(ad, recID...)
	return &Sealer{aead: a, recID: recID, ad: ad}, nil
}

// additionalData is the Sealer's prefix, then seq and the length-prefixed
// kind; the length prefixes keep any two (id, seq, kind) triples apart.
func (s *Sealer) additionalData(seq uint64, kind string) []byte {
	ad := make([]byte, 0, len(s.ad)+8+4+len(kind))
	ad = append(ad, s.ad...)
	ad = binary.BigEndian.AppendUint64(ad, seq)
	ad = binary.BigEndian.AppendUint32(ad, uint32(len(kind)))
	return append(ad, kind...)
}

// Seal returns nonce||ciphertext of plaintext, the kind message at position
// seq of the recording. Each call draws a fresh random nonce.
func (s *Sealer) Seal(seq uint64, kind string, plaintext []byte) []byte {
	n := s.aead.NonceSize()
	out := make([]byte, n, n+len(plaintext)+s.aead.Overhead())
	// crypto/rand.Read never fails: it crashes the program instead.
	_, _ = rand.Read(out)
	return s.aead.Seal(out, out[:n], plaintext, s.additionalData(seq, kind))
}

// Open returns the plaintext of sealed, which Seal made for the same
// recording, seq and kind; otherwise an error wrapping ErrNotAuthentic.
func (s *Sealer) Open(seq uint64, kind string, sealed []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n+s.aead.Overhead() {
		return nil, fmt.Errorf("open %s %d of %s: %d bytes is too short: %w", kind, seq, s.recID, len(sealed), ErrNotAuthentic)
	}
	out, err := s.aead.Open(nil, sealed[:n], sealed[n:], s.additionalData(seq, kind))
	if err != nil {
		return nil, fmt.Errorf("open %s %d of %s: %w", kind, seq, s.recID, err)
	}
	return out, nil
}

package replay

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/reprise-dev/reprise/events"
	"github.com/reprise-dev/reprise/store"
)

// An answer travels sealed. Any program holding the CLI's credentials can
// read every ask subject and publish on it, so the asking run draws a fresh
// token for each question and shows it on its own terminal only; the person
// types it into `reprise runs answer`. From the token both sides derive,
// slowly (argon2id, so that what travels cannot be used to search the
// token's 60 bits offline), the key that seals the answer and the run's
// reply, and the id of the subject the run waits on. The token never
// travels; without it an answer does not open and a reply is not believed.

const (
	// askTokenLen is a token's length in Crockford base32: 60 bits.
	askTokenLen   = 12
	askTokenGroup = 4
	askAlphabet   = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	// The argon2id cost is RFC 9106's second recommended option (3 passes
	// over 64 MiB): paid once per question by the run and once per answer
	// by `reprise runs answer`, and for every guess by whoever searches.
	askKDFTime    = 3
	askKDFMemory  = 64 << 10 // KiB
	askKDFThreads = 4
	askIDLen      = 16
	// askSealed starts every sealed answer and reply. No JSON starts with
	// it, so a plain answer from a reprise that predates sealing is told
	// apart and refused.
	askSealed byte = 1
	// MaxAnswerLen is the longest answer, in bytes, that can be sent.
	MaxAnswerLen = 4096
	// askMaxSealed bounds what is opened at all: the longest answer,
	// escaped as JSON at worst (6 bytes a byte), and room for the rest.
	askMaxSealed = 6*MaxAnswerLen + 1024
)

// askDomain starts the salt and every additional data, so nothing else
// sealed or derived in reprise can pass for an answer or a reply.
const askDomain = "reprise/ask/v1\x00"

// ErrAskToken says that what was typed is not shaped as a token. It never
// repeats what was typed.
var ErrAskToken = errors.New("a token is 12 letters and digits, as the asking run printed it (such as 7K2M-QX9D-H4TB)")

// ErrNotAccepted is returned for sealed data that does not open under a
// question's key: sealed with a wrong token or for another question or
// run, a changed or cut byte, a reply to another answer, or not sealed at
// all. The cases are deliberately indistinguishable.
var ErrNotAccepted = errors.New("not sealed with this question's token")

// NewAskToken returns a fresh token for one question: 12 characters of
// Crockford's base32 (60 random bits), in groups of four for typing.
func NewAskToken() string {
	var b [askTokenLen]byte
	// crypto/rand.Read never fails: it crashes the program instead.
	_, _ = rand.Read(b[:])
	var sb strings.Builder
	for i, c := range b {
		if i > 0 && i%askTokenGroup == 0 {
			sb.WriteByte('-')
		}
		sb.WriteByte(askAlphabet[c&31]) // 256 is a multiple of 32: uniform
	}
	return sb.String()
}

// normalizeAskToken returns token in upper case without dashes or spaces,
// with the letters Crockford's base32 reads as digits (O as 0, I and L as
// 1) mapped, or ErrAskToken.
func normalizeAskToken(token string) (string, error) {
	b := make([]byte, 0, askTokenLen)
	for _, r := range token {
		switch {
		case r == '-' || r == ' ' || r == '\t':
			continue
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		}
		switch r {
		case 'O':
			r = '0'
		case 'I', 'L':
			r = '1'
		}
		if r > 127 || strings.IndexByte(askAlphabet, byte(r)) < 0 || len(b) == askTokenLen {
			return "", ErrAskToken
		}
		b = append(b, byte(r))
	}
	if len(b) != askTokenLen {
		return "", ErrAskToken
	}
	return string(b), nil
}

// AskKey is what one question's token derives: the key its answer and the
// run's reply are sealed with, bound to the run, and the subject the run
// waits on. It is safe for concurrent use.
type AskKey struct {
	runID string
	id    string // hex, the last token of Subject
	aead  *store.AEAD
}

// DeriveAskKey derives run runID's key for the question whose token is
// token, as the asking run printed it (case, dashes and spaces do not
// matter). It is slow on purpose. The salt is the run id, which is random;
// each question of a run has its own token.
func DeriveAskKey(runID, token string) (*AskKey, error) {
	if !events.ValidRunID(runID) {
		return nil, fmt.Errorf("%q is not a run id", runID)
	}
	t, err := normalizeAskToken(token)
	if err != nil {
		return nil, err
	}
	out := argon2.IDKey([]byte(t), []byte(askDomain+runID), askKDFTime, askKDFMemory, askKDFThreads, store.DataKeySize+askIDLen)
	return newAskKey(runID, out)
}

// newAskKey makes the key from what the KDF gave: the AEAD key, then the
// subject id.
func newAskKey(runID string, material []byte) (*AskKey, error) {
	if len(material) != store.DataKeySize+askIDLen {
		return nil, fmt.Errorf("ask key: want %d bytes, got %d", store.DataKeySize+askIDLen, len(material))
	}
	aead, err := store.NewAEAD(material[:store.DataKeySize])
	if err != nil {
		return nil, fmt.Errorf("ask key: %w", err)
	}
	return &AskKey{runID: runID, id: hex.EncodeToString(material[store.DataKeySize:]), aead: aead}, nil
}

// Subject is where the asking run waits for this question's sealed answer.
func (k *AskKey) Subject() string { return events.AskQuestionSubject(k.runID, k.id) }

// SealAnswer seals a for this question: what `reprise runs answer` sends
// on Subject.
func (k *AskKey) SealAnswer(a Answer) ([]byte, error) {
	if len(a.Answer) > MaxAnswerLen {
		return nil, fmt.Errorf("the answer is over %d bytes", MaxAnswerLen)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("seal the answer: %w", err)
	}
	return k.seal("answer", nil, b), nil
}

// OpenAnswer opens what SealAnswer made for this question. Anything else is
// ErrNotAccepted.
func (k *AskKey) OpenAnswer(sealed []byte) (Answer, error) {
	b, err := k.open("answer", nil, sealed)
	if err != nil {
		return Answer{}, err
	}
	var a Answer
	if err := json.Unmarshal(b, &a); err != nil {
		return Answer{}, ErrNotAccepted
	}
	return a, nil
}

// SealReply seals the run's reply to answer, the sealed bytes it opened,
// so that `reprise runs answer` believes a reply only from who holds the
// key, and only to its own answer.
func (k *AskKey) SealReply(answer []byte, r AnswerReply) []byte {
	b, _ := json.Marshal(r) // ints and strings: it cannot fail
	return k.seal("reply", k.answerNonce(answer), b)
}

// OpenReply opens the run's reply to answer, which SealAnswer made.
// Anything else, a plain reply included, is ErrNotAccepted.
func (k *AskKey) OpenReply(answer, reply []byte) (AnswerReply, error) {
	nonce := k.answerNonce(answer)
	if nonce == nil {
		return AnswerReply{}, ErrNotAccepted
	}
	b, err := k.open("reply", nonce, reply)
	if err != nil {
		return AnswerReply{}, err
	}
	var r AnswerReply
	if err := json.Unmarshal(b, &r); err != nil {
		return AnswerReply{}, ErrNotAccepted
	}
	return r, nil
}

// IsSealed says whether b is shaped as a sealed answer or reply rather
// than a plain JSON one. It proves nothing: only opening does.
func IsSealed(b []byte) bool { return len(b) > 0 && b[0] == askSealed }

// answerNonce is the nonce of a sealed answer, which its reply binds; nil
// if answer is too short to hold one.
func (k *AskKey) answerNonce(answer []byte) []byte {
	n := 1 + k.aead.NonceSize()
	if len(answer) < n+k.aead.Overhead() {
		return nil
	}
	return answer[1:n]
}

// additionalData binds what is sealed to its kind, the run, the question
// and, for a reply, the answer's nonce. No part but the last holds a NUL,
// and the last has a fixed length, so no two bindings read the same.
func (k *AskKey) additionalData(kind string, bind []byte) []byte {
	ad := make([]byte, 0, len(askDomain)+len(kind)+len(k.runID)+len(k.id)+3+len(bind))
	ad = append(ad, askDomain...)
	ad = append(append(ad, kind...), 0)
	ad = append(append(ad, k.runID...), 0)
	ad = append(append(ad, k.id...), 0)
	return append(ad, bind...)
}

// seal returns askSealed, a fresh random nonce and the ciphertext.
func (k *AskKey) seal(kind string, bind, plaintext []byte) []byte {
	n := k.aead.NonceSize()
	out := make([]byte, 1+n, 1+n+len(plaintext)+k.aead.Overhead())
	out[0] = askSealed
	_, _ = rand.Read(out[1:])
	return k.aead.Seal(out, out[1:1+n], plaintext, k.additionalData(kind, bind))
}

func (k *AskKey) open(kind string, bind, sealed []byte) ([]byte, error) {
	n := k.aead.NonceSize()
	if len(sealed) < 1+n+k.aead.Overhead() || len(sealed) > askMaxSealed || sealed[0] != askSealed {
		return nil, ErrNotAccepted
	}
	b, err := k.aead.Open(nil, sealed[1:1+n], sealed[1+n:], k.additionalData(kind, bind))
	if err != nil {
		return nil, ErrNotAccepted
	}
	return b, nil
}

package store

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Names of the long-lived keys, one item each (SPEC section 7: distinct trust
// boundaries never share a key).
const (
	// ConsentSigningKey signs the consents a person grants.
	ConsentSigningKey = "consent-signing"
	// AuditChainKey chains the audit log's entries with an HMAC.
	AuditChainKey = "audit-chain"
)

const dataKeyPrefix = "data-"

// maxNameLen is the longest name checkKeyName accepts.
const maxNameLen = 128

// DataKeyName returns the name of recording recID's data key: "data-" and the
// id itself when it is made of lower-case letters, digits, '_' and '-' (a
// "rec_<uuid>" id is), else an escaped form. Distinct ids always give distinct
// names, so erasing one recording's key never erases another's: any other
// byte becomes '.' and two hex digits, and an id whose escaped form would be
// too long becomes ".." and the hex SHA-256 of the id, which no escaped form
// can look like.
func DataKeyName(recID string) string {
	var b strings.Builder
	b.WriteString(dataKeyPrefix)
	for i := 0; i < len(recID); i++ {
		c := recID[i]
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('.')
		b.WriteString(hex.EncodeToString([]byte{c}))
	}
	if b.Len() <= maxNameLen {
		return b.String()
	}
	sum := sha256.Sum256([]byte(recID))
	return dataKeyPrefix + ".." + hex.EncodeToString(sum[:])
}

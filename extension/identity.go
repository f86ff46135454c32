package extension

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
)

// PublicKey is the public key pinned in the extension's manifest
// ("key"), so the unpacked extension has the same id on every machine and the
// WebSocket listener can trust exactly one Origin. The private half is not
// needed for an unpacked extension and is kept nowhere.
const PublicKey = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAyzgN+8hqnTahQxzGgW769Gd/Zbt0KwuU4t5qBnJ3vUYkDUmNjFyvZu6cMh9Oj1cyS1igr1EcfimOhnpVrwuDhWeneYGWSpsUVEy6w0hrKr18Ti6lKYhOIgnP9QYoDUCbidWWBT5tRa6HZH0uKUcywlz5TPzfRilLMiWSHYNX6VXPq55zMSih32BA1JsW8lmbsW8yW6fgEEUPlPrv6Suq8zNNW9HhIylf2J6ZWOIEdG4MzcwndJR5UJ9LJa1Ara1+XmwhumsOOvzVGxgmMw8alNurmawvTTq+h96y5VjTkkWVMaGHpnXUqltNJuxdqvileHZbdMxMYRQYz/DJ0VWYYQIDAQAB"

// Origin is the Origin of the extension built from this tree: the only one
// the daemon's WebSocket listener accepts by default.
var Origin = "chrome-extension://" + mustKeyID(PublicKey)

// KeyID derives a Chrome extension id from the base64 DER public key
// of its manifest: the first 128 bits of its SHA-256, each hex digit mapped
// to a letter from a to p.
func KeyID(publicKeyB64 string) (string, error) {
	der, err := base64.StdEncoding.DecodeString(publicKeyB64)
	if err != nil {
		return "", fmt.Errorf("extension key: %w", err)
	}
	sum := sha256.Sum256(der)
	id := []byte(hex.EncodeToString(sum[:16]))
	for i, c := range id {
		if c <= '9' {
			id[i] = 'a' + (c - '0')
		} else {
			id[i] = 'a' + 10 + (c - 'a')
		}
	}
	return string(id), nil
}

func mustKeyID(key string) string {
	id, err := KeyID(key)
	if err != nil {
		panic(err)
	}
	return id
}

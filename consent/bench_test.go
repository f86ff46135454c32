package consent

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"testing"
	"time"
)

func BenchmarkIssue(b *testing.B) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	is := &Issuer{key: key, pub: key.Public().(ed25519.PublicKey), machineID: testMachine, ttl: DefaultTTL, now: time.Now}
	for b.Loop() {
		if _, _, err := is.Issue(extractReq); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkConsume is a full check and burn: verify, then a KV create on
// the real embedded server's file store.
func BenchmarkConsume(b *testing.B) {
	r := benchIssuer(b)
	toks := make([]string, b.N)
	for i := range toks {
		toks[i], _, _ = r.Issue(extractReq)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.Consume(context.Background(), toks[i], extractReq); err != nil {
			b.Fatal(err)
		}
	}
}

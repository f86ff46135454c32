package redact

import (
	"strings"
	"testing"
)

func BenchmarkStep(b *testing.B) {
	textarea := strings.Repeat("Please ship the order to the warehouse on Monday, ref ORD-2024-000123, "+
		"and call +1 (555) 010-9999 if anything is missing from the box. ", 16)[:2048]
	for _, c := range []struct {
		name, raw, label, url string
	}{
		{"form", "John Smith", "Full Name", "https://app.example.com/customers/new?tab=details"},
		{"email", "john.smith@example.com", "Email", "https://app.example.com/customers/new"},
		{"card", testCard, "Card number", "https://shop.example.com/checkout"},
		{"password", "hunter2", "Password", "https://app.example.com/login"},
		{"textarea2KB", textarea, "Notes", "https://app.example.com/customers/new"},
	} {
		b.Run(c.name, func(b *testing.B) {
			base := formStep(c.raw, c.label)
			base.Enrichment.URL = c.url
			b.SetBytes(int64(len(c.raw)))
			b.ReportAllocs()
			for b.Loop() {
				s := *base
				v := *base.Value
				s.Value = &v
				Step(&s)
			}
		})
	}
}

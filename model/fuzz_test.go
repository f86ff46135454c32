package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func FuzzDecodeJSON(f *testing.F) {
	for _, c := range decodeCases {
		f.Add(c.answer)
	}
	f.Add(`{"a":{"b":[1,2,{"c":null}]},"label":"x"}`)
	f.Add("{\"label\":\"\xff\"}")
	f.Fuzz(func(t *testing.T, answer string) {
		v, err := DecodeJSON[stepLabel](answer)
		if err != nil {
			return
		}
		span := answer[strings.IndexByte(answer, '{') : strings.LastIndexByte(answer, '}')+1]
		if !json.Valid([]byte(span)) {
			t.Fatalf("DecodeJSON(%q) accepted invalid JSON", answer)
		}
		// What was accepted must survive a round trip unchanged.
		b, _ := json.Marshal(v)
		again, err := DecodeJSON[stepLabel](string(b))
		if err != nil || again != v {
			t.Fatalf("round trip of %+v = %+v, %v", v, again, err)
		}
		if _, err := DecodeJSON[map[string]any](answer); err != nil {
			t.Fatalf("DecodeJSON(%q) into a map = %v; want what the struct accepted", answer, err)
		}
	})
}

// FuzzResponseBodies feeds arbitrary bodies to the response and error
// decoders; they must never panic.
func FuzzResponseBodies(f *testing.F) {
	for _, s := range []string{
		`{"error":{"type":"x","message":"y"}}`, `{"error":"x"}`, `{"error":{"code":500}}`, `{"error":null}`,
		`"text"`, `[{"type":"text","text":"a"}]`, `null`, `42`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		anthropicError(data)
		openAIError(data)
		openAIText(data)
		var r anthropicResponse
		decodeBody(ProviderAnthropic, data, &r)
		var o openAIResponse
		decodeBody(ProviderOpenAI, data, &o)
	})
}

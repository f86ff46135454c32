package events

import (
	"regexp"
	"testing"
)

func TestNewFrameRef(t *testing.T) {
	shape := regexp.MustCompile(`^frame_[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for range 1000 {
		r := NewFrameRef()
		if !shape.MatchString(r) || seen[r] {
			t.Fatalf("NewFrameRef() = %q; want frame_ and 32 hex digits, never twice", r)
		}
		seen[r] = true
	}
}

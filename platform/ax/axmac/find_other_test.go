//go:build !darwin

package axmac

import (
	"context"
	"errors"
	"testing"
)

func TestUnsupportedOffMac(t *testing.T) {
	var e Enricher
	ctx := context.Background()
	if _, err := e.Find(ctx, "w", "button", "OK"); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Find off macOS = %v; want ErrUnsupported", err)
	}
	if err := e.Press(ctx, Element{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Press off macOS = %v; want ErrUnsupported", err)
	}
	if err := e.SetValue(ctx, Element{}, "x"); !errors.Is(err, ErrUnsupported) {
		t.Errorf("SetValue off macOS = %v; want ErrUnsupported", err)
	}
	if _, err := e.Value(ctx, Element{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Value off macOS = %v; want ErrUnsupported", err)
	}
	Element{}.Release() // does nothing, twice
	Element{}.Release()
}

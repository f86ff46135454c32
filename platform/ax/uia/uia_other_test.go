//go:build !windows

package uia

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestUnavailableOffWindows(t *testing.T) {
	c, err := New(Options{})
	if c != nil || !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), runtime.GOOS) {
		t.Fatalf("New() = %v, %v; want ErrUnavailable naming %s", c, err, runtime.GOOS)
	}
	var nc *Client
	if _, err := nc.At(context.Background(), 1, 2); !errors.Is(err, ErrUnavailable) {
		t.Errorf("At() = %v; want ErrUnavailable", err)
	}
	if err := nc.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
}

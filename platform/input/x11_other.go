//go:build !linux

package input

// NewX11 is Linux-only for now; see ErrNoInput.
func NewX11(string) (Input, error) { return nil, ErrNoInput }

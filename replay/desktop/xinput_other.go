//go:build !linux

package desktop

// NewX11Input is Linux-only for now; see ErrNoInput.
func NewX11Input(string) (Input, error) { return nil, ErrNoInput }

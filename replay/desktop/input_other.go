//go:build !linux && !darwin && !windows

package desktop

// NewInput: this OS has no desktop input yet.
func NewInput(string) (Input, error) { return nil, ErrNoInput }

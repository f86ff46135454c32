//go:build !linux && !darwin && !windows

package input

// New: this OS has no desktop input yet.
func New(string) (Input, error) { return nil, ErrNoInput }

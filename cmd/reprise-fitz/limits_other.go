//go:build cgo && !linux

package main

// limitResources does nothing here: the caller's timeout and output cap bound
// the helper on systems without a simple per-process limit.
func limitResources() {}

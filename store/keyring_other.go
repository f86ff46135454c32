//go:build !linux

package store

// sessionBusMissing is Linux's concern; elsewhere the keychain needs no bus.
func sessionBusMissing() string { return "" }

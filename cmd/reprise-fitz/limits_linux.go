//go:build cgo && linux

package main

import "syscall"

// limitResources caps this process so that a hostile document that makes
// MuPDF allocate or loop without end fails here, even when the caller's
// timeout is long.
func limitResources() {
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: 4 << 30, Max: 4 << 30})
	_ = syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: 60, Max: 60})
}

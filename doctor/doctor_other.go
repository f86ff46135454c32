//go:build !linux && !darwin && !windows

package doctor

import (
	"context"
	"runtime"
)

func platformProbes() []Probe {
	return []Probe{func(context.Context) Check {
		return Check{Name: "desktop", Detail: "keychain, display and capture are not supported on " + runtime.GOOS}
	}}
}

const keychainFix = "no OS keychain is supported here"

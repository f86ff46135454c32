//go:build !darwin

package doctor

// platformPermissions is empty: no permission prompts gate reprise here.
func platformPermissions() []permission { return nil }

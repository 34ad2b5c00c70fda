//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package p2p

// lockDir has no lock to take on this platform: every process gets the
// first profile.
func lockDir(string) (func(), error) { return func() {}, nil }

// tightenDataDir has no owner and mode bits to check on this platform.
func tightenDataDir(string) error { return nil }

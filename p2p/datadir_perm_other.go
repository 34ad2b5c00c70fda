//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package p2p

// tightenDataDir does nothing where files have no Unix owner and mode
// bits. On Windows, os.Chmod only sets the read-only attribute; who may
// read a file is an NTFS access control list, which Salvo neither checks
// nor sets. The default data directory, %AppData%\Salvo, inherits the
// user profile's list, which lets in only that user, SYSTEM and the
// Administrators, so it is private without our help. A SALVO_HOME outside
// the profile keeps whatever its parent grants (a folder made at the root
// of C: lets every signed-in user read and change it), hence the README's
// advice to keep it inside the profile.
func tightenDataDir(string) error { return nil }

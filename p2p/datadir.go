package p2p

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// ProfilesDir is the folder inside the data directory that holds the extra
// profiles of players running at the same time on one machine.
const ProfilesDir = "players"

// MaxProfiles bounds how many players can run at once from one data
// directory.
const MaxProfiles = 8

// lockFile is the file a running Salvo holds locked in its data directory.
const lockFile = "in-use.lock"

// ErrAllProfilesInUse is returned by ClaimDataDir when every profile is
// held by a running process.
var ErrAllProfilesInUse = errors.New("every profile of this data directory is in use")

// ClaimDataDir takes a data directory for this process, so that two
// players can run on one machine (two terminals, say) without sharing an
// identity, a match store or a log. It is base itself (profile 1) unless
// another running process holds it; then the first free
// base/players/N (N = 2 to MaxProfiles), each a data directory of its own
// with its own identity. The claim is an exclusive lock on a file in the
// directory, which the operating system drops when the process ends, so a
// crashed process never keeps it, and a restarted one gets its profile back
// when the others still hold theirs: flock on Unix and macOS, LockFileEx
// on Windows. release gives it up. Where the platform has no such lock,
// base is always taken. On Unix an existing base that other users could
// enter is made private first (tightenDataDir), or refused when another
// user owns something in it; on Windows its access list is left as it is.
func ClaimDataDir(base string) (dir string, profile int, release func(), err error) {
	// An existing directory may be looser than the one MkdirAll makes.
	if err := tightenDataDir(base); err != nil {
		return "", 0, nil, fmt.Errorf("p2p: data directory: %w", err)
	}
	for p := 1; p <= MaxProfiles; p++ {
		d := base
		if p > 1 {
			d = filepath.Join(base, ProfilesDir, strconv.Itoa(p))
		}
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", 0, nil, fmt.Errorf("p2p: data directory: %w", err)
		}
		unlock, err := lockDir(filepath.Join(d, lockFile))
		if errors.Is(err, errLocked) {
			continue
		}
		if err != nil {
			return "", 0, nil, fmt.Errorf("p2p: data directory %s: %w", d, err)
		}
		return d, p, unlock, nil
	}
	return "", 0, nil, fmt.Errorf("p2p: %w: %s (%d players running)", ErrAllProfilesInUse, base, MaxProfiles)
}

// errLocked is returned by lockDir when another process holds the lock.
var errLocked = errors.New("locked by another process")

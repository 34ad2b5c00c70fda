//go:build windows

package p2p

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// dirLockWorks: a second process on a profile is refused it.
const dirLockWorks = true

// lockDir takes an exclusive lock on the first byte of path (created if
// missing) without waiting; errLocked if another open handle holds it.
// LockFileEx is Windows' counterpart of the Unix flock: the lock belongs to
// the handle, so a second process (or a second open in this one) is
// refused, and Windows drops it when the handle is closed or the process
// ends, crashed or not, so a dead process never keeps its profile. (Unlike
// flock it is mandatory for the locked byte, which nothing reads.)
func lockDir(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	h := windows.Handle(f.Fd())
	var first windows.Overlapped // the lock starts at offset 0
	err = windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &first)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, errLocked
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		// Closing the handle drops the lock too; unlocking first
		// frees it at once rather than when Windows gets round to it.
		_ = windows.UnlockFileEx(h, 0, 1, 0, &first)
		f.Close()
	}, nil
}

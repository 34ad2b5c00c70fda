//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package p2p

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// dirLockWorks: a second process on a profile is refused it.
const dirLockWorks = true

// lockDir takes an exclusive advisory lock on path (created if missing)
// without waiting; errLocked if another open file holds it.
func lockDir(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock file: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

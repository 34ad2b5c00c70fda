//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package p2p

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Modes of the data directory: it holds the identity key, the secrets of
// every match in progress and the logs, so no other local user may read
// it, nor plant anything in it.
const (
	dataDirMode  fs.FileMode = 0o700
	dataFileMode fs.FileMode = 0o600
)

// tightenDataDir makes an existing data directory private: every
// directory in it 0700 and every file 0600 when they were looser (an
// older Salvo, a copy, a umask of 022). It refuses, naming the path, a
// directory or anything in it owned by another user: that user could
// have planted a key or a match record there, and we could not tighten it
// anyway. Symbolic links are neither followed nor changed.
func tightenDataDir(base string) error {
	uid := os.Getuid()
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real // a data directory linked from elsewhere: the directory itself
	}
	return filepath.WalkDir(base, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // not made yet, or removed meanwhile
		}
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != uid {
			return fmt.Errorf("%s is owned by user %d, not by this user (%d): another user could have put things in the data directory; move it away or set SALVO_HOME", path, st.Uid, uid)
		}
		want := dataFileMode
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return nil
		case fi.IsDir():
			want = dataDirMode
		case !fi.Mode().IsRegular():
			return nil // a socket or a pipe: not ours to change
		}
		if fi.Mode().Perm()&^want == 0 {
			return nil
		}
		if err := os.Chmod(path, want); err != nil {
			return fmt.Errorf("%s has mode %v, readable by other users, and cannot be made private: %w", path, fi.Mode().Perm(), err)
		}
		return nil
	})
}

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

// othersBits are the mode bits that let other local users in. The data
// directory holds the identity key, the secrets of every match in
// progress and the logs, so no other local user may read it, nor plant
// anything in it.
const othersBits fs.FileMode = 0o077

// tightenDataDir makes an existing data directory private: it takes the
// group's and others' bits off every directory and file in it (an older
// Salvo, a copy, a umask of 022), so that directories end 0700 and files
// 0600, keeping the owner's own bits. It refuses, naming the path, a
// directory or anything in it owned by another user: that user could
// have planted a key or a match record there, and we could not tighten it
// anyway. Symbolic links are neither followed nor changed. (SALVO_HOME
// names a directory for Salvo alone: all of it is made private.)
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
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			return nil // a link, a socket, a pipe: not ours to change
		}
		perm := fi.Mode().Perm()
		if perm&othersBits == 0 {
			return nil
		}
		if err := os.Chmod(path, perm&^othersBits); err != nil {
			return fmt.Errorf("%s has mode %v, readable by other users, and cannot be made private: %w", path, fi.Mode().Perm(), err)
		}
		return nil
	})
}

package p2p

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// IdentityFile is the name of the identity key file inside a data
// directory (one claimed with ClaimDataDir).
const IdentityFile = "identity.key"

// DataDir returns the directory Salvo keeps per-user data in, without
// creating it: $SALVO_HOME if set; else $XDG_DATA_HOME/salvo if that is an
// absolute path; else ~/.local/share/salvo on Linux and other Unix systems,
// and os.UserConfigDir()/Salvo on macOS (~/Library/Application Support) and
// Windows (%AppData%).
func DataDir() (string, error) {
	if d := os.Getenv("SALVO_HOME"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "salvo"), nil
	}
	switch runtime.GOOS {
	case "darwin", "windows", "ios":
		d, err := os.UserConfigDir()
		if err != nil {
			return "", fmt.Errorf("p2p: data directory: %w", err)
		}
		return filepath.Join(d, "Salvo"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("p2p: data directory: %w", err)
	}
	return filepath.Join(home, ".local", "share", "salvo"), nil
}

// LoadOrCreateIdentity reads the Ed25519 private key stored at path (in
// libp2p's protobuf key encoding), or, if there is no file yet, creates one:
// the missing directories are made with mode 0700 and the key is written to
// a temporary file, synced, given mode 0600 and then linked into place, so
// a crash never leaves a half-written key and two processes starting at
// once end up with the same key. An existing file readable by others is
// tightened to 0600. A file that holds anything but an Ed25519 key is an
// error (it is never overwritten).
func LoadOrCreateIdentity(path string) (crypto.PrivKey, error) {
	if path == "" {
		return nil, errors.New("p2p: identity: empty path")
	}
	key, err := loadIdentity(path)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("p2p: identity: create %s: %w", dir, err)
	}
	key, _, err = crypto.GenerateEd25519Key(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("p2p: identity: generate key: %w", err)
	}
	raw, err := crypto.MarshalPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("p2p: identity: encode key: %w", err)
	}
	created, err := writeNew(path, raw)
	if err != nil {
		return nil, err
	}
	if !created { // someone else won the race: use theirs
		return loadIdentity(path)
	}
	return key, nil
}

// loadIdentity reads and checks the key at path; a missing file gives an
// error wrapping fs.ErrNotExist.
func loadIdentity(path string) (crypto.PrivKey, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("p2p: identity: read %s: %w", path, err)
	}
	key, err := crypto.UnmarshalPrivateKey(raw)
	if err != nil {
		return nil, fmt.Errorf("p2p: identity: decode %s: %w", path, err)
	}
	if key.Type() != crypto.Ed25519 {
		return nil, fmt.Errorf("p2p: identity: %s holds a %s key, want Ed25519", path, key.Type())
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
			if err := os.Chmod(path, 0o600); err != nil {
				return nil, fmt.Errorf("p2p: identity: tighten mode of %s: %w", path, err)
			}
		}
	}
	return key, nil
}

// writeNew atomically creates path holding data with mode 0600. It reports
// false, without error, when path already existed (the existing file is
// left alone).
func writeNew(path string, data []byte) (created bool, err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return false, fmt.Errorf("p2p: identity: temporary file in %s: %w", dir, err)
	}
	tmpName := tmp.Name()
	defer os.Remove(tmpName)
	if err := tmp.Chmod(0o600); err != nil && runtime.GOOS != "windows" {
		tmp.Close()
		return false, fmt.Errorf("p2p: identity: chmod %s: %w", tmpName, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return false, fmt.Errorf("p2p: identity: write %s: %w", tmpName, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return false, fmt.Errorf("p2p: identity: sync %s: %w", tmpName, err)
	}
	if err := tmp.Close(); err != nil {
		return false, fmt.Errorf("p2p: identity: close %s: %w", tmpName, err)
	}
	// A hard link never replaces an existing file; fall back to rename on
	// file systems without links.
	if err := os.Link(tmpName, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		if _, statErr := os.Lstat(path); statErr == nil {
			return false, nil
		}
		if err := os.Rename(tmpName, path); err != nil {
			return false, fmt.Errorf("p2p: identity: install %s: %w", path, err)
		}
	}
	syncDir(dir)
	return true, nil
}

// syncDir makes a new directory entry durable where the platform allows it.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

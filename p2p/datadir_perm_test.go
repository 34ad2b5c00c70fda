//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package p2p

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Regression test for issue 12, class 12 (data directory): an existing
// data directory that other users can read is made private, every
// directory 0700 and every file 0600, profiles and matches included; the
// owner's own bits stay.
func TestAttackLooseDataDirIsTightened(t *testing.T) {
	base := filepath.Join(t.TempDir(), "salvo")
	matches := filepath.Join(base, "matches")
	profile := filepath.Join(base, ProfilesDir, "2")
	for _, d := range []string{base, matches, profile} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{filepath.Join(base, IdentityFile), filepath.Join(matches, "m.secrets"), filepath.Join(profile, IdentityFile)}
	for _, f := range files {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(f, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	// A link in it is left as it is, and not followed.
	outside := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(outside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	dir, _, release, err := ClaimDataDir(base)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if dir != base {
		t.Fatalf("claimed %s", dir)
	}
	for _, d := range []string{base, matches, profile, filepath.Dir(profile)} {
		if m := mode(t, d); m != 0o700 {
			t.Fatalf("%s: mode %v after the claim", d, m)
		}
	}
	for _, f := range files {
		if m := mode(t, f); m != 0o600 {
			t.Fatalf("%s: mode %v after the claim", f, m)
		}
	}
	script := filepath.Join(base, "run.sh")
	if err := os.WriteFile(script, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := tightenDataDir(base); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, script); m != 0o700 {
		t.Fatalf("%s: mode %v, want the owner's 0700", script, m)
	}
	if m := mode(t, outside); m != 0o644 {
		t.Fatalf("a file outside, linked from the data directory, changed to %v", m)
	}
}

// A data directory holding something another user owns is refused, with
// a message that names it.
func TestAttackForeignDataDirIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving a file to another user needs root")
	}
	base := t.TempDir()
	planted := filepath.Join(base, IdentityFile)
	if err := os.WriteFile(planted, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(planted, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	_, _, _, err := ClaimDataDir(base)
	if err == nil || !strings.Contains(err.Error(), planted) || !strings.Contains(err.Error(), "owned by user 4242") {
		t.Fatalf("claim of a directory with another user's file: %v", err)
	}
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

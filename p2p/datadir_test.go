package p2p

import (
	"errors"
	"path/filepath"
	"runtime"
	"testing"
)

// A second player on the same machine gets a profile of its own, with its
// own identity; a released profile is taken again first.
func TestClaimDataDirGivesEachRunningPlayerItsOwnProfile(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no advisory file lock on this platform")
	}
	base := t.TempDir()
	dir1, p1, release1, err := ClaimDataDir(base)
	if err != nil || dir1 != base || p1 != 1 {
		t.Fatalf("first claim: %s, profile %d, %v", dir1, p1, err)
	}
	dir2, p2, release2, err := ClaimDataDir(base)
	if err != nil || dir2 != filepath.Join(base, ProfilesDir, "2") || p2 != 2 {
		t.Fatalf("second claim: %s, profile %d, %v", dir2, p2, err)
	}
	k1, err := LoadOrCreateIdentity(filepath.Join(dir1, IdentityFile))
	if err != nil {
		t.Fatal(err)
	}
	k2, err := LoadOrCreateIdentity(filepath.Join(dir2, IdentityFile))
	if err != nil {
		t.Fatal(err)
	}
	if k1.Equals(k2) {
		t.Fatal("two profiles share one identity")
	}
	release1()
	again, p, release, err := ClaimDataDir(base)
	if err != nil || again != base || p != 1 {
		t.Fatalf("claim after release: %s, profile %d, %v", again, p, err)
	}
	release()
	release2()

	var releases []func()
	for range MaxProfiles {
		_, _, r, err := ClaimDataDir(base)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, r)
	}
	if _, _, _, err := ClaimDataDir(base); !errors.Is(err, ErrAllProfilesInUse) {
		t.Fatalf("claim with every profile held: %v", err)
	}
	for _, r := range releases {
		r()
	}
}

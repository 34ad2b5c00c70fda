package p2p

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// A second player on the same machine gets a profile of its own, with its
// own identity; a released profile is taken again first.
func TestClaimDataDirGivesEachRunningPlayerItsOwnProfile(t *testing.T) {
	if !dirLockWorks {
		t.Skip("no file lock on this platform")
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

// envClaimer names the data directory a child process claims in
// TestDataDirClaimerProcess.
const envClaimer = "SALVO_TEST_CLAIM_DATADIR"

// A second process on the same data directory is given the next profile,
// and a process that is killed, never releasing anything, leaves its
// profile free for the next one: the lock is the operating system's (flock
// on Unix and macOS, LockFileEx on Windows), held by a process and not by
// a file left behind.
func TestClaimDataDirAcrossProcesses(t *testing.T) {
	if !dirLockWorks {
		t.Skip("no file lock on this platform")
	}
	base := t.TempDir()
	dir, p, release, err := ClaimDataDir(base)
	if err != nil || p != 1 {
		t.Fatalf("first claim: %s, profile %d, %v", dir, p, err)
	}
	first := startClaimer(t, base)
	if first.profile != 2 {
		t.Fatalf("a second process on a held profile 1 was given profile %d", first.profile)
	}
	release()
	second := startClaimer(t, base)
	if second.profile != 1 {
		t.Fatalf("a process after profile 1's release was given profile %d", second.profile)
	}
	if err := first.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()
	// Windows may drop a dead process's locks a moment after it ends.
	for tries := 0; ; tries++ {
		dir, p, release, err := ClaimDataDir(base)
		if err != nil {
			t.Fatal(err)
		}
		release()
		if p == 2 {
			break
		}
		if tries == 50 {
			t.Fatalf("the killed process's profile 2 was never freed: the next claim got %s", dir)
		}
		time.Sleep(100 * time.Millisecond)
	}
	second.stop(t)
}

// claimer is a child process holding a profile of a data directory.
type claimer struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	profile int
}

// startClaimer runs this test binary as a process that claims base and
// holds the profile it gets until its standard input closes.
func startClaimer(t *testing.T, base string) *claimer {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDataDirClaimerProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envClaimer+"="+base)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &claimer{cmd: cmd, stdin: stdin}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if _, serr := fmt.Sscanf(line, "profile %d", &c.profile); err != nil || serr != nil {
		t.Fatalf("claimer process said %q (%v)", line, err)
	}
	return c
}

// stop ends the claimer the ordinary way: it releases its profile.
func (c *claimer) stop(t *testing.T) {
	t.Helper()
	c.stdin.Close()
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("claimer process: %v", err)
	}
}

// TestDataDirClaimerProcess is the child of TestClaimDataDirAcrossProcesses
// (it does nothing in an ordinary run): it claims the data directory
// envClaimer names, prints the profile it got, and holds it until its
// standard input closes.
func TestDataDirClaimerProcess(t *testing.T) {
	base := os.Getenv(envClaimer)
	if base == "" {
		t.Skip("run by TestClaimDataDirAcrossProcesses")
	}
	_, p, release, err := ClaimDataDir(base)
	if err != nil {
		fmt.Printf("error %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("profile %d\n", p)
	_, _ = io.Copy(io.Discard, os.Stdin)
	release()
}

package p2p

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
)

func TestDataDir(t *testing.T) {
	home := t.TempDir()
	tests := []struct {
		name     string
		salvo    string
		xdg      string
		want     string
		unixOnly bool
	}{
		{name: "SALVO_HOME wins", salvo: "/srv/salvo", xdg: "/x", want: "/srv/salvo"},
		{name: "XDG_DATA_HOME", xdg: "/x/data", want: filepath.Join("/x/data", "salvo")},
		{name: "relative XDG_DATA_HOME ignored", xdg: "rel/data", want: filepath.Join(home, ".local", "share", "salvo"), unixOnly: true},
		{name: "home default", want: filepath.Join(home, ".local", "share", "salvo"), unixOnly: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.unixOnly && (runtime.GOOS == "darwin" || runtime.GOOS == "windows") {
				t.Skip("OS-specific default")
			}
			t.Setenv("SALVO_HOME", tc.salvo)
			t.Setenv("XDG_DATA_HOME", tc.xdg)
			t.Setenv("HOME", home)
			got, err := DataDir()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("DataDir() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLoadOrCreateIdentity(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "salvo")
	path := filepath.Join(dir, IdentityFile)
	k1, err := LoadOrCreateIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	if k1.Type() != crypto.Ed25519 {
		t.Fatalf("key type %v, want Ed25519", k1.Type())
	}
	if runtime.GOOS != "windows" {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
		}
		di, err := os.Stat(dir)
		if err != nil {
			t.Fatal(err)
		}
		if di.Mode().Perm() != 0o700 {
			t.Errorf("directory mode %v, want 0700", di.Mode().Perm())
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries (temporary files left?), want 1", len(entries))
	}
	k2, err := LoadOrCreateIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	if !k1.Equals(k2) {
		t.Fatal("second load gave a different key")
	}
	id1, _ := peer.IDFromPrivateKey(k1)
	id2, _ := peer.IDFromPrivateKey(k2)
	if id1 != id2 {
		t.Fatalf("peer IDs differ: %s, %s", id1, id2)
	}
	other, err := LoadOrCreateIdentity(filepath.Join(t.TempDir(), IdentityFile))
	if err != nil {
		t.Fatal(err)
	}
	if other.Equals(k1) {
		t.Fatal("two fresh identities are equal")
	}
}

func TestLoadIdentityRejects(t *testing.T) {
	secpKey, _, err := crypto.GenerateSecp256k1Key(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	secp, err := crypto.MarshalPrivateKey(secpKey)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"garbage", []byte("not a key"), "decode"},
		{"empty file", nil, "decode"},
		{"secp256k1 key", secp, "want Ed25519"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), IdentityFile)
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := LoadOrCreateIdentity(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one mentioning %q", err, tc.want)
			}
			after, _ := os.ReadFile(path)
			if string(after) != string(tc.data) {
				t.Fatal("a bad key file was overwritten")
			}
		})
	}
	t.Run("empty path", func(t *testing.T) {
		if _, err := LoadOrCreateIdentity(""); err == nil {
			t.Fatal("no error for an empty path")
		}
	})
}

func TestIdentityLooseModeTightened(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	path := filepath.Join(t.TempDir(), IdentityFile)
	if _, err := LoadOrCreateIdentity(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateIdentity(path); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after load, want 0600", fi.Mode().Perm())
	}
}

func TestIdentityConcurrentCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d", IdentityFile)
	const n = 8
	keys := make([]crypto.PrivKey, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { keys[i], errs[i] = LoadOrCreateIdentity(path) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		if !keys[i].Equals(keys[0]) {
			t.Fatalf("caller %d got a different key than caller 0", i)
		}
	}
}

func TestIdentityPersistsAcrossRestarts(t *testing.T) {
	t.Setenv("SALVO_HOME", filepath.Join(t.TempDir(), "home"))
	base, err := DataDir()
	if err != nil {
		t.Fatal(err)
	}
	dir, _, release, err := ClaimDataDir(base)
	if err != nil {
		t.Fatal(err)
	}
	release()
	path := filepath.Join(dir, IdentityFile)
	var ids []peer.ID
	for range 2 {
		key, err := LoadOrCreateIdentity(path)
		if err != nil {
			t.Fatal(err)
		}
		h, err := New(context.Background(), Config{Key: key, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, h.ID())
		if err := h.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if ids[0] != ids[1] {
		t.Fatalf("peer ID changed across restarts: %s then %s", ids[0], ids[1])
	}
}

func TestWriteNewNeverReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), IdentityFile)
	created, err := writeNew(path, []byte("first"))
	if err != nil || !created {
		t.Fatalf("first writeNew: created=%v, %v", created, err)
	}
	created, err = writeNew(path, []byte("second"))
	if err != nil || created {
		t.Fatalf("second writeNew: created=%v, %v; want false, nil", created, err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first" {
		t.Fatalf("file holds %q, want the first write", b)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("%d directory entries, want 1 (temporary file left behind?)", len(entries))
	}
}

package p2p

import (
	"errors"
	"math/rand/v2"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// seededPeer is an Ed25519 peer ID from a seeded source (property tests
// over many keys, repeatable).
func seededPeer(t testing.TB, r *rand.Rand) peer.ID {
	t.Helper()
	seed := make([]byte, 32)
	for i := range seed {
		seed[i] = byte(r.Uint32())
	}
	k, _, err := crypto.GenerateEd25519Key(strings.NewReader(string(seed)))
	if err != nil {
		t.Fatal(err)
	}
	id, err := peer.IDFromPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// For any Ed25519 peer ID the short code is at most 64 characters and
// reads back as that peer, however it is typed or pasted; every cut is
// "incomplete" and every single mistyped symbol is caught.
func TestShortInviteProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 3))
	for range 40 {
		id := seededPeer(t, r)
		code, err := EncodeShortInvite(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(code) > 64 || len(code) != ShortInviteLen || !strings.HasPrefix(code, InvitePrefix+"-") {
			t.Fatalf("code %q: %d characters", code, len(code))
		}
		for _, typed := range []string{code, strings.ToLower(code), strings.ReplaceAll(code, "-", " "), code[:30] + "\n" + code[30:], strings.ReplaceAll(code, "0", "O")} {
			inv, err := ParseInvite(typed)
			if err != nil || inv.Peer != id || !inv.Short() {
				t.Fatalf("ParseInvite(%q) = %+v, %v; want short invite of %s", typed, inv, err, id)
			}
		}
		for n := len(InvitePrefix) + 1; n < len(code); n++ {
			if _, err := ParseInvite(code[:n]); !errors.Is(err, ErrInviteIncomplete) {
				t.Fatalf("code cut to %d characters %q: err = %v, want incomplete", n, code[:n], err)
			}
		}
		body := len(InvitePrefix) + 1
		for i := body; i < len(code); i++ {
			if code[i] == '-' {
				continue
			}
			for _, c := range inviteAlphabet {
				if byte(c) == code[i] {
					continue
				}
				typo := code[:i] + string(c) + code[i+1:]
				_, err := ParseInvite(typo)
				if !errors.Is(err, ErrInviteTypo) && !errors.Is(err, ErrInviteIncomplete) {
					t.Fatalf("typo at %d (%q): err = %v, want mistyped", i, typo, err)
				}
			}
		}
	}
}

// A checksum taken from another host's code does not pass: a code made up
// of one host's key and another's check is refused as mistyped.
func TestShortInviteSplicedChecksum(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	a, b := seededPeer(t, r), seededPeer(t, r)
	ca, _ := EncodeShortInvite(a)
	cb, _ := EncodeShortInvite(b)
	cut := len(ca) - 5 // the last symbols hold the checksum
	spliced := ca[:cut] + cb[cut:]
	if _, err := ParseInvite(spliced); !errors.Is(err, ErrInviteTypo) {
		t.Fatalf("spliced code %q: err = %v, want mistyped", spliced, err)
	}
	// A long code's body never reads as a short one, nor a short one's as
	// long: each has its own checksum label.
	long := EncodeInvite(Invite{Peer: a, Addrs: []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/1")}, Issued: time.Now()})
	inv, err := ParseInvite(long)
	if err != nil || inv.Short() || len(long) <= 64 {
		t.Fatalf("long code %q (%d) = %+v, %v", long, len(long), inv, err)
	}
	if _, err := EncodeShortInvite(peer.ID("not a key")); !errors.Is(err, ErrNotEd25519) {
		t.Fatalf("short code of a non-Ed25519 ID: %v", err)
	}
}

// dhtNet is a small DHT on loopback: servers bootstrapped from the first,
// as a simulated public network.
func dhtNet(t testing.TB, n int) ([]*Host, []string) {
	t.Helper()
	var servers []*Host
	var boot []string
	for range n {
		s := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTServer, Reachability: network.ReachabilityPublic, Bootstrap: boot})
		servers = append(servers, s)
		boot = append(boot, fullAddr(s))
	}
	return servers, boot
}

// A host in the DHT gives a short code; a joiner in the same DHT holding
// nothing but that code finds the host and connects.
func TestShortCodeFoundThroughTheDHT(t *testing.T) {
	_, boot := dhtNet(t, 3)
	h := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot[1:2], Reachability: network.ReachabilityPublic})
	waitFor(t, 20*time.Second, h.Findable)
	code, ok := h.ShortInviteCode()
	if !ok {
		t.Fatal("findable host has no short code")
	}
	j := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot[2:]})
	inv, err := ParseInvite(code)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	got, err := j.ConnectInvite(ctxT(t, 30*time.Second), inv)
	if err != nil || got != h.ID() {
		t.Fatalf("ConnectInvite = %s, %v", got, err)
	}
	t.Logf("short code %s (%d characters, long code %d): found and connected in %v", code, len(code), len(h.InviteCode()), time.Since(start))
	matchPair(t, j, h)
	// A LAN-only peer cannot use a short code, and says what to ask for.
	lan := newHost(t, Config{ListenAddrs: loopTCP})
	if _, err := lan.ConnectInvite(ctxT(t, 5*time.Second), inv); err == nil || !strings.Contains(err.Error(), "long code") {
		t.Fatalf("LAN-only join of a short code: %v", err)
	}
}

// Attack: DHT servers announce an impostor's address for the host's peer
// ID. A dial of that ID there fails in the security handshake (the
// impostor cannot prove the host's key); with the host offline the join
// is refused, and with the host online it reaches the host itself, over
// the host's own address, never the impostor.
func TestShortCodeImpostorAddressesLeadNowhere(t *testing.T) {
	servers, boot := dhtNet(t, 2)
	impostor := newHost(t, Config{ListenAddrs: loopTCP})
	announce := func(id peer.ID) {
		for _, s := range servers {
			s.Libp2p().Peerstore().AddAddrs(id, impostor.Libp2p().Addrs(), time.Hour)
		}
	}
	j := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot})

	offline := seededPeer(t, rand.New(rand.NewPCG(1, 2)))
	announce(offline)
	err := j.Libp2p().Connect(ctxT(t, 5*time.Second), peer.AddrInfo{ID: offline, Addrs: impostor.Libp2p().Addrs()})
	if err == nil || !strings.Contains(err.Error(), "peer id mismatch") {
		t.Fatalf("dial of the host's ID at the impostor's address: %v, want a peer ID mismatch", err)
	}
	code, _ := EncodeShortInvite(offline)
	inv, err := ParseInvite(code)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.ConnectInvite(ctxT(t, 3*time.Second), inv); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("join through announced impostor addresses: %v, want unreachable", err)
	}
	if len(j.Libp2p().Network().ConnsToPeer(offline)) != 0 || len(j.Libp2p().Network().ConnsToPeer(impostor.ID())) != 0 {
		t.Fatal("joiner connected to the impostor")
	}

	h := newHost(t, Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot, Reachability: network.ReachabilityPublic})
	waitFor(t, 20*time.Second, h.Findable)
	announce(h.ID())
	code, _ = h.ShortInviteCode()
	inv, err = ParseInvite(code)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := j.ConnectInvite(ctxT(t, 30*time.Second), inv); err != nil || got != h.ID() {
		t.Fatalf("join of the real host: %s, %v", got, err)
	}
	for _, c := range j.Libp2p().Network().ConnsToPeer(h.ID()) {
		if slices.ContainsFunc(impostor.Libp2p().Addrs(), c.RemoteMultiaddr().Equal) {
			t.Fatalf("connection to the host's ID over the impostor's address %s", c.RemoteMultiaddr())
		}
		if !c.RemotePublicKey().Equals(h.Libp2p().Peerstore().PubKey(h.ID())) {
			t.Fatal("connection not secured to the host's key")
		}
	}
	matchPair(t, j, h)
}

// LAN play never needs the public network: with the DHT's bootstrap peer
// unreachable (it accepts TCP and never answers, so the DHT hangs), a host
// shows its long code at once and a joiner on the same network plays
// through it while the bootstrap dials are still hanging.
func TestLANMatchWhileTheDHTHangs(t *testing.T) {
	hole, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := hole.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		hole.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	someone := seededPeer(t, rand.New(rand.NewPCG(4, 4)))
	boot := []string{"/ip4/127.0.0.1/tcp/" + strings.Split(hole.Addr().String(), ":")[1] + "/p2p/" + someone.String()}
	cfg := Config{ListenAddrs: loopTCP, DHT: DHTClient, Bootstrap: boot, DiscoverRelays: true}
	h := newHost(t, cfg)
	j := newHost(t, cfg)
	if _, ok := h.ShortInviteCode(); ok {
		t.Fatal("a host outside the DHT offers a short code")
	}
	inv, err := ParseInvite(h.InviteCode())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.ConnectInvite(ctxT(t, 10*time.Second), inv); err != nil {
		t.Fatal(err)
	}
	matchPair(t, j, h)
	mu.Lock()
	hanging := len(held)
	mu.Unlock()
	if hanging == 0 {
		t.Fatal("the bootstrap peer was never dialed: the test shows nothing")
	}
	if h.Findable() {
		t.Fatal("host in a hung DHT reports findable")
	}
}

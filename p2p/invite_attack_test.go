package p2p

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// otherPeer is a peer ID that no invite of the tests names.
func otherPeer(t testing.TB) peer.ID {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(k)
	return id
}

// legacyCode is the older form of inv: each address with /p2p/<peer>.
func legacyCode(inv Invite, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = inv.Addrs[i%len(inv.Addrs)].String() + "/p2p/" + inv.Peer.String()
	}
	return strings.Join(parts, ",")
}

// Regression test for issue 12, class 12 (invite codes): at most
// InviteMaxAddrs addresses in either form, refused before the addresses
// are parsed in the older form.
func TestAttackInviteAddressCount(t *testing.T) {
	inv := testInvite(t)
	withClock(t, inv.Issued)
	many := inv
	for len(many.Addrs) < InviteMaxAddrs+1 {
		many.Addrs = append(many.Addrs, inv.Addrs...)
	}
	eight := many
	eight.Addrs = many.Addrs[:InviteMaxAddrs]
	for _, tc := range []struct {
		name, code string
		ok         bool
	}{
		{"compact, 8 addresses", encodeInvite(eight), true},
		{"compact, 9 addresses", encodeInvite(Invite{Peer: inv.Peer, Issued: inv.Issued, Addrs: many.Addrs[:InviteMaxAddrs+1]}), false},
		{"compact, 32 addresses", encodeInvite(Invite{Peer: inv.Peer, Issued: inv.Issued, Addrs: append(append(append(many.Addrs[:8:8], many.Addrs[:8]...), many.Addrs[:8]...), many.Addrs[:8]...)}), false},
		{"older form, 8 addresses", legacyCode(inv, InviteMaxAddrs), true},
		{"older form, 9 addresses", legacyCode(inv, InviteMaxAddrs+1), false},
		{"older form, 20000 addresses", legacyCode(inv, 20000), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseInvite(tc.code)
			if tc.ok {
				if err != nil || len(got.Addrs) != InviteMaxAddrs {
					t.Fatalf("got %d addresses, %v", len(got.Addrs), err)
				}
				return
			}
			if !errors.Is(err, ErrInviteFormat) || !strings.Contains(err.Error(), "at most") {
				t.Fatalf("got %d addresses, %v", len(got.Addrs), err)
			}
		})
	}
	// The encoder never writes a code the parser refuses.
	if got, err := ParseInvite(EncodeInvite(many)); err != nil || len(got.Addrs) != InviteMaxAddrs {
		t.Fatalf("EncodeInvite of %d addresses: %d, %v", len(many.Addrs), len(got.Addrs), err)
	}
}

// A compact code's issue time lies in a stated window: present, at most
// InviteMaxSkew ahead and at most InviteMaxAge behind the joiner's clock.
func TestAttackInviteIssueTime(t *testing.T) {
	inv := testInvite(t)
	now := inv.Issued
	withClock(t, now)
	for _, tc := range []struct {
		name   string
		issued time.Time
		want   error
	}{
		{"now", now, nil},
		{"a clock 9 minutes behind the host's", now.Add(9 * time.Minute), nil},
		{"6 days old", now.Add(-6 * 24 * time.Hour), nil},
		{"no issue time", time.Time{}, ErrInviteFormat},
		{"11 minutes ahead", now.Add(11 * time.Minute), ErrInviteFuture},
		{"years ahead", now.Add(5 * 365 * 24 * time.Hour), ErrInviteFuture},
		{"8 days old", now.Add(-8 * 24 * time.Hour), ErrInviteStale},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := inv
			c.Issued = tc.issued
			_, err := ParseInvite(EncodeInvite(c))
			if tc.want == nil && err != nil || tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// A code names one host: an address that leads to another peer is
// refused, in either form; a relay address (through another peer, to the
// host) and a final /p2p/<host> are fine.
func TestAttackInviteOtherPeersAddress(t *testing.T) {
	inv := testInvite(t)
	withClock(t, inv.Issued)
	other := "/p2p/" + otherPeer(t).String()
	host := "/p2p/" + inv.Peer.String()
	for _, tc := range []struct {
		name, addr string
		ok         bool
		want       string // the address as read
	}{
		{"plain", "/ip4/7.0.0.9/tcp/1", true, "/ip4/7.0.0.9/tcp/1"},
		{"ends in the host", "/ip4/7.0.0.9/tcp/1" + host, true, "/ip4/7.0.0.9/tcp/1"},
		{"relay", "/ip4/7.0.0.9/tcp/1" + other + "/p2p-circuit", true, "/ip4/7.0.0.9/tcp/1" + other + "/p2p-circuit"},
		{"relay, ends in the host", "/ip4/7.0.0.9/tcp/1" + other + "/p2p-circuit" + host, true, "/ip4/7.0.0.9/tcp/1" + other + "/p2p-circuit"},
		{"another peer", "/ip4/7.0.0.9/tcp/1" + other, false, ""},
		{"another peer inside", "/ip4/7.0.0.9/tcp/1" + other + host, false, ""},
		{"relay to another peer", "/ip4/7.0.0.9/tcp/1" + host + "/p2p-circuit" + other, false, ""},
		{"only the host", host, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := ma.StringCast(tc.addr)
			c := inv
			c.Addrs = []ma.Multiaddr{a}
			got, err := ParseInvite(encodeInvite(c))
			if tc.ok != (err == nil) || tc.ok && (len(got.Addrs) != 1 || got.Addrs[0].String() != tc.want) {
				t.Fatalf("compact: %+v, %v", got.Addrs, err)
			}
			if !tc.ok && !errors.Is(err, ErrInviteFormat) {
				t.Fatalf("compact: %v, want %v", err, ErrInviteFormat)
			}
			if tc.ok {
				if again, err := ParseInvite(EncodeInvite(c)); err != nil || !sameInvite(again, got) {
					t.Fatalf("EncodeInvite: %+v, %v", again, err)
				}
			} else if again, err := ParseInvite(EncodeInvite(c)); err != nil || len(again.Addrs) != 0 {
				t.Fatalf("EncodeInvite kept an address ParseInvite refuses: %+v, %v", again, err)
			}
			legacy := tc.addr
			if !strings.HasSuffix(legacy, host) {
				legacy += host
			}
			// (The older form reads a lone /p2p/<host> as the peer ID with
			// no address, to look up.)
			got, err = ParseInvite(legacy)
			if tc.ok && (err != nil || len(got.Addrs) != 1 || got.Addrs[0].String() != tc.want) || !tc.ok && err == nil && len(got.Addrs) != 0 {
				t.Fatalf("older form %s: %+v, %v", legacy, got.Addrs, err)
			}
		})
	}
	if _, err := ParseInvite(strings.Repeat(" ", 10) + strings.Repeat("7", maxInviteText+1)); !errors.Is(err, ErrInviteFormat) {
		t.Fatalf("a code of %d characters: %v", maxInviteText+1, err)
	}
}

// BenchmarkParseInviteLegacyHuge is the older form with 20,000 addresses
// (106 ms before the count was bounded).
func BenchmarkParseInviteLegacyHuge(b *testing.B) {
	code := legacyCode(testInvite(b), 20000)
	for b.Loop() {
		_, _ = ParseInvite(code)
	}
}

// FuzzParseInviteBounds: whatever the text, a code read names at most
// InviteMaxAddrs addresses, every one of them the named peer's, and a
// compact code an issue time inside the window.
func FuzzParseInviteBounds(f *testing.F) {
	inv := testInvite(f)
	old := inviteNow
	inviteNow = func() time.Time { return inv.Issued }
	f.Cleanup(func() { inviteNow = old })
	many := inv
	for range 3 {
		many.Addrs = append(many.Addrs, many.Addrs...)
	}
	f.Add(encodeInvite(many))
	f.Add(legacyCode(inv, InviteMaxAddrs+1))
	f.Add(legacyCode(inv, 2))
	other := inv
	other.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/7.0.0.9/tcp/1/p2p/" + otherPeer(f).String())}
	f.Add(encodeInvite(other))
	f.Add(EncodeInvite(Invite{Peer: inv.Peer, Addrs: inv.Addrs, Issued: inv.Issued.Add(time.Hour)}))
	f.Add(EncodeInvite(Invite{Peer: inv.Peer, Addrs: inv.Addrs}))
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseInvite(s)
		if err != nil {
			return
		}
		if len(got.Addrs) > InviteMaxAddrs {
			t.Fatalf("%q read with %d addresses", s, len(got.Addrs))
		}
		for _, a := range got.Addrs {
			if b, err := peerAddr(got.Peer, a); err != nil || !b.Equal(a) {
				t.Fatalf("%q read with address %s: %v", s, a, err)
			}
		}
		if strings.HasPrefix(strings.TrimSpace(s), "/") {
			return
		}
		if err := issuedInWindow(got.Issued); err != nil {
			t.Fatalf("%q read, issued %v: %v", s, got.Issued, err)
		}
	})
}

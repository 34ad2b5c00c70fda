package p2p

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"
)

// testInvite is an Ed25519 host with a LAN, a public, a QUIC and a relay
// address, issued at a fixed time.
func testInvite(t testing.TB) Invite {
	t.Helper()
	k, _, err := crypto.GenerateEd25519Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(k)
	rk, _, _ := crypto.GenerateEd25519Key(nil)
	rid, _ := peer.IDFromPrivateKey(rk)
	return Invite{
		Peer: id,
		Addrs: []ma.Multiaddr{
			ma.StringCast("/ip4/7.0.0.2/tcp/4001"),
			ma.StringCast("/ip4/7.0.0.2/udp/4001/quic-v1"),
			ma.StringCast("/ip4/7.0.0.1/tcp/4001/p2p/" + rid.String() + "/p2p-circuit"),
			ma.StringCast("/ip4/192.168.1.20/tcp/4001"),
		},
		Issued: time.Date(2026, 11, 22, 19, 0, 0, 0, time.UTC),
	}
}

// withClock sets the invite clock for one test.
func withClock(t *testing.T, now time.Time) {
	old := inviteNow
	inviteNow = func() time.Time { return now }
	t.Cleanup(func() { inviteNow = old })
}

func sameInvite(a, b Invite) bool {
	if a.Peer != b.Peer || !a.Issued.Equal(b.Issued) || len(a.Addrs) != len(b.Addrs) {
		return false
	}
	for i := range a.Addrs {
		if !a.Addrs[i].Equal(b.Addrs[i]) {
			return false
		}
	}
	return true
}

func TestInviteRoundTrip(t *testing.T) {
	inv := testInvite(t)
	withClock(t, inv.Issued.Add(time.Hour))
	code := EncodeInvite(inv)
	if !strings.HasPrefix(code, InvitePrefix+"-") {
		t.Fatalf("code %q lacks the prefix", code)
	}
	for _, r := range strings.TrimPrefix(code, InvitePrefix) {
		if r != '-' && !strings.ContainsRune(inviteAlphabet, r) {
			t.Fatalf("code %q has %q outside the alphabet", code, r)
		}
	}
	// The 4-address Ed25519 invite with a relay stays compact.
	if n := len(strings.ReplaceAll(code, "-", "")); n > 220 {
		t.Fatalf("code has %d symbols: %s", n, code)
	}
	t.Logf("code (%d chars): %s", len(code), code)
	legacy := []string{}
	for _, a := range inv.Addrs {
		legacy = append(legacy, a.String()+"/p2p/"+inv.Peer.String())
	}
	t.Logf("the same as multiaddrs: %d chars", len(strings.Join(legacy, ",")))

	for _, tc := range []struct {
		name string
		edit func(string) string
	}{
		{"as made", func(s string) string { return s }},
		{"lower case", strings.ToLower},
		{"no dashes", func(s string) string { return strings.ReplaceAll(s, "-", "") }},
		{"wrapped over lines", func(s string) string { return s[:20] + "\n  " + s[20:60] + " \t" + s[60:] }},
		{"lookalikes typed", func(s string) string {
			body := strings.NewReplacer("1", "l", "0", "O").Replace(s[len(InvitePrefix):])
			return "SALV01" + body
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseInvite(tc.edit(code))
			if err != nil {
				t.Fatal(err)
			}
			if !sameInvite(got, inv) {
				t.Fatalf("got %+v, want %+v", got, inv)
			}
		})
	}
}

func TestInviteErrors(t *testing.T) {
	inv := testInvite(t)
	withClock(t, inv.Issued.Add(time.Hour))
	code := EncodeInvite(inv)
	swap := func(s string, i int) string {
		b := []byte(s)
		for j := i; j < len(b); j++ {
			if b[j] != '-' {
				if b[j] == 'A' {
					b[j] = 'B'
				} else {
					b[j] = 'A'
				}
				break
			}
		}
		return string(b)
	}
	for _, tc := range []struct {
		name string
		code string
		want error
		say  string
	}{
		{"empty", " \n", ErrInviteEmpty, ""},
		{"not a code", "hello there", ErrInviteFormat, "starts with SALVO1-"},
		{"newer version", "SALVO2" + code[len(InvitePrefix):], ErrInviteVersion, "format 2"},
		{"one symbol changed", swap(code, 30), ErrInviteTypo, "checksum"},
		{"last symbol changed", swap(code, len(code)-1), ErrInviteTypo, ""},
		{"symbol left out", code[:32] + code[33:], ErrInviteTypo, ""},
		{"symbol added", code[:32] + "7" + code[32:], ErrInviteTypo, ""},
		{"cut short", code[:40], ErrInviteIncomplete, "at least"},
		{"cut in the addresses", code[:len(code)-20], ErrInviteIncomplete, "symbols are missing at the end"},
		{"cut in the checksum", code[:len(code)-2], ErrInviteIncomplete, "2 symbols are missing at the end"},
		{"last symbol dropped", code[:len(code)-1], ErrInviteIncomplete, "1 symbol is missing at the end"},
		{"foreign character", code[:20] + "*" + code[21:], ErrInviteTypo, "not used in codes"},
		{"bad multiaddr list", "/ip4/1.2.3.4/tcp/1", ErrInviteFormat, "/p2p/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseInvite(tc.code)
			if !errors.Is(err, tc.want) {
				t.Fatalf("ParseInvite(%q) = %v, want %v", tc.code, err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.say) {
				t.Fatalf("error %q does not say %q", err, tc.say)
			}
		})
	}
	t.Run("stale", func(t *testing.T) {
		withClock(t, inv.Issued.Add(InviteMaxAge+time.Hour))
		_, err := ParseInvite(code)
		if !errors.Is(err, ErrInviteStale) || !strings.Contains(err.Error(), "7 days") {
			t.Fatalf("got %v", err)
		}
	})
}

// A mistyped code is caught: every single-symbol substitution fails the
// checksum (or decoding), never yields another peer.
func TestInviteEverySubstitutionCaught(t *testing.T) {
	inv := testInvite(t)
	withClock(t, inv.Issued)
	code := strings.ReplaceAll(EncodeInvite(inv), "-", "")
	body := code[len(InvitePrefix):]
	for i := range len(body) {
		for _, r := range inviteAlphabet {
			if byte(r) == body[i] {
				continue
			}
			typo := InvitePrefix + body[:i] + string(r) + body[i+1:]
			if got, err := ParseInvite(typo); err == nil {
				t.Fatalf("symbol %d → %c accepted as %s", i, r, got.Peer)
			}
		}
	}
}

func TestInviteLegacyForm(t *testing.T) {
	h := newHost(t, Config{})
	inv, err := ParseInvite(h.Invite())
	if err != nil {
		t.Fatal(err)
	}
	if inv.Peer != h.ID() || len(inv.Addrs) != len(h.Addrs()) || !inv.Issued.IsZero() {
		t.Fatalf("legacy invite read as %+v", inv)
	}
}

func TestInviteNonEd25519Peer(t *testing.T) {
	k, _, err := crypto.GenerateSecp256k1Key(nil)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := peer.IDFromPrivateKey(k)
	inv := Invite{Peer: id, Addrs: []ma.Multiaddr{ma.StringCast("/ip4/7.1.2.3/udp/9/quic-v1")}, Issued: time.Unix(1_800_000_000, 0).UTC()}
	withClock(t, inv.Issued)
	got, err := ParseInvite(EncodeInvite(inv))
	if err != nil || !sameInvite(got, inv) {
		t.Fatalf("got %+v, %v", got, err)
	}
}

// A host's own code dials it, and its addresses are trimmed: no
// duplicates, loopback only when nothing else.
func TestHostInviteCodeConnects(t *testing.T) {
	a, b := newHost(t, Config{}), newHost(t, Config{})
	inv, err := ParseInvite(b.InviteCode())
	if err != nil {
		t.Fatal(err)
	}
	if inv.Peer != b.ID() || len(inv.Addrs) != 2 {
		t.Fatalf("invite %+v, want b with its 2 loopback addresses", inv)
	}
	id, err := a.ConnectInvite(ctxT(t, 10*time.Second), inv)
	if err != nil || id != b.ID() {
		t.Fatalf("ConnectInvite: %v, %v", id, err)
	}
}

func TestInviteAddrsTrim(t *testing.T) {
	p := "/p2p/12D3KooWLsSWaRsoCejZ6RMsGqdftpKbohczNqs3jvNfPgRwrMp2"
	in := []ma.Multiaddr{
		ma.StringCast("/ip4/127.0.0.1/tcp/1" + p),
		ma.StringCast("/ip6/fe80::1/tcp/1" + p),
		ma.StringCast("/ip4/192.168.1.2/tcp/1" + p),
		ma.StringCast("/ip4/192.168.1.2/tcp/1" + p),
		ma.StringCast("/ip4/8.8.4.4/udp/1/quic-v1" + p),
	}
	got := inviteAddrs(in)
	want := []string{"/ip4/8.8.4.4/udp/1/quic-v1", "/ip4/192.168.1.2/tcp/1"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i].String() != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if loop := inviteAddrs(in[:2]); len(loop) != 1 || loop[0].String() != "/ip4/127.0.0.1/tcp/1" {
		t.Fatalf("loopback-only host: %v", loop)
	}
}

// An invite whose addresses all went stale fails with ErrUnreachable and
// says the code is old.
func TestConnectInviteStale(t *testing.T) {
	a := newHost(t, Config{})
	inv := testInvite(t)
	inv.Addrs = []ma.Multiaddr{ma.StringCast("/ip4/127.0.0.1/tcp/1")}
	withClock(t, inv.Issued.Add(3*time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := a.ConnectInvite(ctx, inv)
	if !errors.Is(err, ErrUnreachable) || !strings.Contains(err.Error(), "probably stale") {
		t.Fatalf("got %v", err)
	}
}

func FuzzParseInvite(f *testing.F) {
	inv := testInvite(f)
	f.Add(EncodeInvite(inv))
	f.Add("SALVO1-00000")
	f.Add("/ip4/1.2.3.4/tcp/1/p2p/12D3KooWLsSWaRsoCejZ6RMsGqdftpKbohczNqs3jvNfPgRwrMp2")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseInvite(s)
		if err != nil {
			return
		}
		if got.Peer.Validate() != nil {
			t.Fatalf("accepted %q with an invalid peer", s)
		}
		if got.Issued.IsZero() {
			return
		}
		// A code that parses re-encodes to itself (modulo the lenient
		// reading of case, separators and lookalikes).
		again, err := ParseInvite(EncodeInvite(got))
		if err != nil || !sameInvite(again, got) {
			t.Fatalf("re-encoding %q: %v", s, err)
		}
	})
}

func BenchmarkInviteEncode(b *testing.B) {
	inv := testInvite(b)
	for b.Loop() {
		_ = EncodeInvite(inv)
	}
}

func BenchmarkInviteParse(b *testing.B) {
	inv := testInvite(b)
	old := inviteNow
	inviteNow = func() time.Time { return inv.Issued }
	defer func() { inviteNow = old }()
	code := EncodeInvite(inv)
	for b.Loop() {
		if _, err := ParseInvite(code); err != nil {
			b.Fatal(err)
		}
	}
}

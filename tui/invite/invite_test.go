package invite

import (
	"context"
	"errors"
	"strings"
	"testing"

	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/p2p"
)

const id = "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN"

func TestParse(t *testing.T) {
	tests := []struct {
		name  string
		code  string
		addrs int
		err   string
	}{
		{"one address", "/ip4/192.168.1.20/tcp/4001/p2p/" + id, 1, ""},
		{"two, wrapped over lines as pasted", "/ip4/192.168.1.20/tcp/4001/p2p/" + id + ",\n  /ip4/192.168.1.20/udp/4001/quic-v1/p2p/" + id, 2, ""},
		{"a bare peer ID address", "/p2p/" + id, 0, ""},
		{"empty", "  \n", 0, "no code yet"},
		{"not a multiaddr", "hello", 0, "starts with /ip4/"},
		{"no peer ID", "/ip4/1.2.3.4/tcp/1", 0, "lacks its /p2p/"},
		{"two peers", "/ip4/1.2.3.4/tcp/1/p2p/" + id + ",/ip4/1.2.3.4/tcp/1/p2p/12D3KooWH7SPesNZUq86zTBkQaoBZqdmoucwsbo4LgYheH87S8i6", 0, "different peers"},
		{"garbage protocol", "/ip4/999.1.1.1/tcp/1/p2p/" + id, 0, "not a valid code"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tg, err := Parse(tc.code)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tg.ID.String() != id || tg.Addrs != tc.addrs || strings.ContainsAny(tg.Dial, " \n") {
				t.Fatalf("target %+v", tg)
			}
		})
	}
	if _, err := Parse(""); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty: %v", err)
	}
}

func TestFormatKeepsUsefulAddresses(t *testing.T) {
	in := []string{
		"/ip4/192.168.1.20/tcp/4001/p2p/" + id,
		"/ip4/192.168.1.20/tcp/4002/p2p/" + id, // same IP and transport: dropped
		"/ip4/192.168.1.20/udp/4001/quic-v1/p2p/" + id,
		"/ip6/fe80::1/tcp/4001/p2p/" + id, // link-local: dropped
		"/ip4/127.0.0.1/tcp/4001/p2p/" + id,
	}
	var addrs []ma.Multiaddr
	for _, s := range in {
		addrs = append(addrs, ma.StringCast(s))
	}
	got := Format(addrs)
	want := in[0] + "," + in[2]
	if got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// Only loopback: keep it (a practice on one machine).
	if got := Format(addrs[4:]); got != in[4] {
		t.Fatalf("loopback only: %q", got)
	}
}

func TestCodeOfARealHostDials(t *testing.T) {
	ctx := context.Background()
	a, err := p2p.New(ctx, p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := p2p.New(ctx, p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tg, err := Parse(Code(a))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b.Connect(ctx, tg.Dial); err != nil || got != a.ID() {
		t.Fatalf("connect: %v %v", got, err)
	}
	lan := FromPeer(p2p.PeerInfo{ID: a.ID(), Addrs: a.Libp2p().Addrs()})
	if tg, err := Parse(lan); err != nil || tg.ID != a.ID() {
		t.Fatalf("LAN peer code %q: %v", lan, err)
	}
}

// FuzzParse: codes are typed and pasted by people, and come from LAN peers.
func FuzzParse(f *testing.F) {
	f.Add("/ip4/192.168.1.20/tcp/4001/p2p/" + id)
	f.Add("/p2p/" + id + ",/dns/x/tcp/1")
	f.Add("\n\t/ip6/::1/udp/1/quic-v1")
	f.Fuzz(func(t *testing.T, code string) {
		tg, err := Parse(code)
		if err == nil && (tg.ID == "" || strings.ContainsAny(tg.Dial, " \t\n")) {
			t.Fatalf("accepted %q as %+v", code, tg)
		}
	})
}

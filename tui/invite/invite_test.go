package invite

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/p2p"
)

const id = "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN"

func TestParse(t *testing.T) {
	ctx := context.Background()
	h, err := p2p.New(ctx, p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	code := Code(h)
	tests := []struct {
		name  string
		code  string
		addrs int
		err   string
	}{
		{"a compact code", code, 1, ""},
		{"lower case, wrapped, with spaces", strings.ToLower(strings.Join(Lines(code, 20), "\n  ")), 1, ""},
		{"the older multiaddr form", "/ip4/192.168.1.20/tcp/4001/p2p/" + id + ",\n  /ip4/192.168.1.20/udp/4001/quic-v1/p2p/" + id, 2, ""},
		{"empty", "  \n", 0, "empty invite code"},
		{"not a code", "hello", 0, "starts with SALVO1-"},
		{"a mistyped symbol", code[:len(code)-3] + flip(code[len(code)-3]) + code[len(code)-2:], 0, "mistyped"},
		{"a symbol left out in the middle", code[:20] + code[21:], 0, "mistyped"},
		{"the last symbol cut off in pasting", code[:len(code)-1], 0, "incomplete: 1 symbol is missing at the end"},
		{"cut short in pasting", code[:len(code)/2], 0, "incomplete"},
		{"no peer ID in the older form", "/ip4/1.2.3.4/tcp/1", 0, "not a Salvo invite code"},
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
			if tg.Addrs != tc.addrs || tg.ID == "" {
				t.Fatalf("target %+v", tg)
			}
		})
	}
	if _, err := Parse(""); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty: %v", err)
	}
}

// flip returns another symbol of the code alphabet than c.
func flip(c byte) string {
	if c == 'A' {
		return "B"
	}
	return "A"
}

func TestLines(t *testing.T) {
	code := "SALVO1-AAAAA-BBBBB-CCCCC-DDDDD"
	got := Lines(code, 14)
	if strings.Join(got, "") != code {
		t.Fatalf("lines %q lose symbols", got)
	}
	for _, l := range got {
		if len(l) > 14 {
			t.Fatalf("line %q is wider than 14", l)
		}
	}
	if got[0] != "SALVO1-AAAAA-" {
		t.Fatalf("first line %q does not break after a group", got[0])
	}
	old := "/ip4/1.2.3.4/tcp/1/p2p/" + id + ",/ip4/1.2.3.4/udp/1/quic-v1/p2p/" + id
	if got := Lines(old, 200); len(got) != 1 {
		t.Fatalf("a short enough old code was broken: %q", got)
	}
	if got := Lines(old, 90); len(got) != 2 || !strings.HasSuffix(got[0], ",") {
		t.Fatalf("old code lines %q", got)
	}
}

func TestCodesOfRealHostsDial(t *testing.T) {
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
	for _, code := range []string{Code(a), FromPeer(p2p.PeerInfo{ID: a.ID(), Addrs: a.Libp2p().Addrs()}), a.Invite()} {
		tg, err := Parse(code)
		if err != nil {
			t.Fatalf("%q: %v", code, err)
		}
		if got, err := b.ConnectInvite(ctx, tg.Invite); err != nil || got != a.ID() {
			t.Fatalf("connect with %q: %v %v", code, got, err)
		}
	}
}

// FuzzParse: codes are typed and pasted by people.
func FuzzParse(f *testing.F) {
	f.Add("SALVO1-AAAAA-BBBBB")
	f.Add("/ip4/192.168.1.20/tcp/4001/p2p/" + id)
	f.Add("\n\t/ip6/::1/udp/1/quic-v1")
	f.Fuzz(func(t *testing.T, code string) {
		tg, err := Parse(code)
		if err == nil && tg.ID == "" {
			t.Fatalf("accepted %q without a peer", code)
		}
		_ = Lines(code, 1+len(code)%40)
	})
}

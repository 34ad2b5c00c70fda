package p2p

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/network"
	ma "github.com/multiformats/go-multiaddr"
)

// randomDialAddrs is a random set of a peer's addresses: public and
// private, IPv4 and IPv6, TCP and QUIC, direct and through a relay.
func randomDialAddrs(r *rand.Rand) []ma.Multiaddr {
	const relay = "/p2p/12D3KooWGVpfd3ijNhXjj122tXdreoM3M2zyNv86DZoMMV4ZR1Fz/p2p-circuit"
	ips := []string{"/ip4/7.0.0.1", "/ip4/10.1.0.2", "/ip6/2001:db8::1", "/ip4/127.0.0.1"}
	var out []ma.Multiaddr
	for range 1 + r.IntN(8) {
		s := ips[r.IntN(len(ips))]
		port := 1024 + r.IntN(60000)
		if r.IntN(2) == 0 {
			s += fmt.Sprintf("/tcp/%d", port)
		} else {
			s += fmt.Sprintf("/udp/%d/quic-v1", port)
		}
		if r.IntN(4) == 0 {
			s += relay
		}
		a := ma.StringCast(s)
		if !ma.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// For any set of a peer's addresses, a host that listens on TCP only (or
// QUIC only) dials every address on its own transport before any other,
// and still dials every address: the connection it makes then leaves
// from its listen port, so identify's observed address counts and its
// DCUtR service starts. Under libp2p's own ranking a TCP-only joiner
// reached the relay over QUIC and never punched
// (TestNetCodeOnlyJoinerPunches with AutoNAT v2 on).
func TestDialRankPrefersListenedTransport(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, listen := range [][]string{{"/ip4/0.0.0.0/tcp/0"}, {"/ip4/0.0.0.0/udp/0/quic-v1"}} {
		own := ipTransport(ma.StringCast(listen[0]))
		rank := listenedRanker([]ma.Multiaddr{ma.StringCast(listen[0])})
		for range 2000 {
			addrs := randomDialAddrs(r)
			got := rank(addrs)
			if len(got) != len(addrs) {
				t.Fatalf("listen %v, addrs %v: ranked %v, want every address once", listen, addrs, got)
			}
			lastOwn, firstOther := time.Duration(-1), time.Duration(1<<62)
			for _, d := range got {
				if !ma.Contains(addrs, d.Addr) {
					t.Fatalf("ranked %s, not among %v", d.Addr, addrs)
				}
				if ipTransport(d.Addr) == own {
					lastOwn = max(lastOwn, d.Delay)
				} else {
					firstOther = min(firstOther, d.Delay)
				}
			}
			if lastOwn >= 0 && firstOther < 1<<62 && firstOther < lastOwn+UnlistenedDialDelay {
				t.Fatalf("listen %v, addrs %v: an address on another transport is dialed at %v, before %v after the last on ours (%v): %v",
					listen, addrs, firstOther, UnlistenedDialDelay, lastOwn, got)
			}
		}
	}
}

// A host that listens on both transports dials as libp2p's smart dialing
// does: QUIC first.
func TestDialRankBothTransportsPrefersQUIC(t *testing.T) {
	rank := listenedRanker([]ma.Multiaddr{ma.StringCast("/ip4/0.0.0.0/tcp/0"), ma.StringCast("/ip4/0.0.0.0/udp/0/quic-v1")})
	got := rank([]ma.Multiaddr{ma.StringCast("/ip4/7.0.0.1/tcp/4001"), ma.StringCast("/ip4/7.0.0.1/udp/4001/quic-v1")})
	i := slices.IndexFunc(got, func(d network.AddrDelay) bool { return d.Delay == 0 })
	if i < 0 || ipTransport(got[i].Addr) != ma.P_UDP {
		t.Fatalf("ranked %v, want the QUIC address first", got)
	}
}

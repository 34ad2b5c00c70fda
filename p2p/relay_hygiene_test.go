package p2p

import (
	"errors"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p"
	"github.com/libp2p/go-libp2p/core/host"
	"github.com/libp2p/go-libp2p/core/network"
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/libp2p/go-libp2p/p2p/protocol/circuitv2/client"
	ma "github.com/multiformats/go-multiaddr"
)

// plainHost is a libp2p node that is not a Salvo peer (it speaks no Salvo
// protocol), on loopback; salvoLike makes it claim MatchProtocol, as a
// program written to pass for Salvo would.
func plainHost(t *testing.T, salvoLike bool) host.Host {
	t.Helper()
	h, err := libp2p.New(libp2p.ListenAddrStrings(loopTCP...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	if salvoLike {
		h.SetStreamHandler(MatchProtocol, func(s network.Stream) { s.Reset() })
	}
	return h
}

func relayInfo(t *testing.T, r *Host) peer.AddrInfo {
	t.Helper()
	ai, err := ParseAddrs(fullAddr(r))
	if err != nil {
		t.Fatal(err)
	}
	return ai
}

func isRefused(err error) bool {
	var re client.ReservationError
	return errors.As(err, &re)
}

// A libp2p node that is not a Salvo peer gets neither a reservation nor
// a circuit to a Salvo peer from a Salvo relay; a Salvo peer gets both.
func TestRelayServesSalvoPeersOnly(t *testing.T) {
	r := relayHost(t)
	ri := relayInfo(t, r)
	stranger := plainHost(t, false)
	ctx := ctxT(t, 20*time.Second)
	if err := stranger.Connect(ctx, ri); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Reserve(ctx, stranger, ri); !isRefused(err) {
		t.Fatalf("a non-Salvo peer's reservation: %v, want refused", err)
	}
	a := newHost(t, Config{ListenAddrs: loopTCP, Relays: []string{fullAddr(r)}})
	waitFor(t, 15*time.Second, func() bool { return len(a.RelayAddrs()) > 0 })
	circuit, err := ma.NewMultiaddr(fullAddr(r) + "/p2p-circuit")
	if err != nil {
		t.Fatal(err)
	}
	err = stranger.Connect(ctx, peer.AddrInfo{ID: a.ID(), Addrs: []ma.Multiaddr{circuit}})
	if err == nil {
		t.Fatal("a non-Salvo peer opened a circuit to a Salvo peer")
	}
	t.Logf("stranger's circuit: %v", err)
	b := newHost(t, Config{ListenAddrs: loopTCP})
	b.AddPeerAddrs(a.ID(), []ma.Multiaddr{circuit})
	if err := b.h.Connect(network.WithAllowLimitedConn(ctx, "test"), peer.AddrInfo{ID: a.ID(), Addrs: []ma.Multiaddr{circuit}}); err != nil {
		t.Fatalf("a Salvo peer's circuit: %v", err)
	}
}

// Reservation floods are held back: one peer asking again and again gets
// ReserveBurst answers then refusals; many identities from one IP address
// hold at most MaxReservationsPerIP reservations.
func TestRelayReservationFlood(t *testing.T) {
	r := relayHost(t)
	ri := relayInfo(t, r)
	ctx := ctxT(t, 60*time.Second)
	lim := DefaultRelayLimits()

	p := plainHost(t, true)
	if err := p.Connect(ctx, ri); err != nil {
		t.Fatal(err)
	}
	granted := 0
	for range 3 * lim.ReserveBurst {
		if _, err := client.Reserve(ctx, p, ri); err == nil {
			granted++
		} else if !isRefused(err) {
			t.Fatal(err)
		}
	}
	if granted != lim.ReserveBurst {
		t.Fatalf("one peer got %d of %d reservations in a burst, want %d", granted, 3*lim.ReserveBurst, lim.ReserveBurst)
	}

	held := 0
	for range 2 * lim.MaxReservationsPerIP {
		q := plainHost(t, true)
		if err := q.Connect(ctx, ri); err != nil {
			t.Fatal(err)
		}
		if _, err := client.Reserve(ctx, q, ri); err == nil {
			held++
		} else if !isRefused(err) {
			t.Fatal(err)
		}
	}
	// p holds one already, from the same address.
	if held+1 != lim.MaxReservationsPerIP {
		t.Fatalf("%d identities from one IP hold %d reservations, want %d", 2*lim.MaxReservationsPerIP, held+1, lim.MaxReservationsPerIP)
	}
}

// The reservation rate forgets idle keys when full, and refuses a new key
// while every known one is busy.
func TestReserveRateBounded(t *testing.T) {
	r := newReserveRate(2, time.Second)
	now := time.Unix(1000, 0)
	for i := range maxRateKeys {
		if !r.allow(string(rune(i)), now) {
			t.Fatalf("key %d refused", i)
		}
	}
	if r.allow("one more", now) {
		t.Fatal("a new key admitted past maxRateKeys while all were busy")
	}
	later := now.Add(3 * time.Second)
	if !r.allow("one more", later) || len(r.buckets) > maxRateKeys {
		t.Fatalf("idle keys not dropped: %d buckets", len(r.buckets))
	}
	if ipKey(ma.StringCast("/ip6/2001:db8::1/tcp/1")) != ipKey(ma.StringCast("/ip6/2001:db8::ffff/udp/2/quic-v1")) {
		t.Fatal("two addresses of one IPv6 /64 have different rate keys")
	}
}

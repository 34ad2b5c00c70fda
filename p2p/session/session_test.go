package session

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
)

// twoHosts starts two real libp2p hosts on 127.0.0.1 and opens a match
// stream from b to a; it returns both ends.
func twoHosts(t *testing.T) (aKey, bKey crypto.PrivKey, aEnd, bEnd *p2p.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	aKey, _, _ = crypto.GenerateEd25519Key(nil)
	bKey, _, _ = crypto.GenerateEd25519Key(nil)
	var hosts [2]*p2p.Host
	for i, k := range []crypto.PrivKey{aKey, bKey} {
		h, err := p2p.New(ctx, p2p.Config{Key: k, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		hosts[i] = h
	}
	id, err := hosts[1].Connect(ctx, hosts[0].Invite())
	if err != nil {
		t.Fatal(err)
	}
	bEnd, err = hosts[1].OpenMatch(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case aEnd = <-hosts[0].Incoming():
	case <-ctx.Done():
		t.Fatal("no incoming match stream")
	}
	return aKey, bKey, aEnd, bEnd
}

func TestHandshakeAgreesOnOneHeader(t *testing.T) {
	aKey, bKey, aEnd, bEnd := twoHosts(t)
	ctx := context.Background()
	done := make(chan *Match, 1)
	go func() {
		m, err := Host(ctx, aEnd, Self{Key: aKey, Name: "ann"}, Offer{Game: "ubuild", Variant: "custom"})
		if err != nil {
			t.Error(err)
		}
		done <- m
	}()
	var seen fairness.Header
	joined, err := Join(ctx, bEnd, Self{Key: bKey, Name: "bob"}, func(h fairness.Header) error { seen = h; return nil })
	if err != nil {
		t.Fatal(err)
	}
	hosted := <-done
	if hosted == nil || hosted.Header.Match != joined.Header.Match || seen.Match != joined.Header.Match {
		t.Fatalf("headers differ: %+v / %+v", hosted, joined)
	}
	if hosted.Seat != 0 || joined.Seat != 1 || joined.Header.Variant != "custom" || joined.Header.Players[1].Name != "bob" {
		t.Fatalf("seats or header wrong: %+v", joined.Header)
	}
}

func TestJoinerCanDecline(t *testing.T) {
	aKey, bKey, aEnd, bEnd := twoHosts(t)
	ctx := context.Background()
	errc := make(chan error, 1)
	go func() {
		_, err := Host(ctx, aEnd, Self{Key: aKey, Name: "ann"}, Offer{Game: "ubuild"})
		errc <- err
	}()
	_, err := Join(ctx, bEnd, Self{Key: bKey, Name: "bob"}, func(h fairness.Header) error { return errors.New("not today") })
	if err == nil || !strings.Contains(err.Error(), "not today") {
		t.Fatalf("Join = %v", err)
	}
	if err := <-errc; !errors.Is(err, ErrDeclined) || !strings.Contains(err.Error(), "not today") {
		t.Fatalf("Host = %v, want ErrDeclined with the reason", err)
	}
}

func TestInvitationFlow(t *testing.T) {
	aKey, bKey, aEnd, bEnd := twoHosts(t)
	ctx := context.Background()
	// b opened the stream, so b is the inviting host here.
	done := make(chan *Match, 1)
	go func() {
		if err := Invite(ctx, bEnd, Self{Key: bKey, Name: "bob"}, Offer{Game: "cards", Variant: "beginner"}); err != nil {
			t.Error(err)
		}
		m, err := Host(ctx, bEnd, Self{Key: bKey, Name: "bob"}, Offer{Game: "cards", Variant: "beginner"})
		if err != nil {
			t.Error(err)
		}
		done <- m
	}()
	inv, err := ReadInvite(ctx, aEnd)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Offer.Game != "cards" || inv.Offer.Variant != "beginner" || inv.Name != "bob" {
		t.Fatalf("invitation = %+v", inv)
	}
	joined, err := Join(ctx, aEnd, Self{Key: aKey, Name: "ann"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m := <-done; m == nil || m.Header.Match != joined.Header.Match || joined.Seat != 1 {
		t.Fatalf("invited match: %+v / %+v", m, joined)
	}
}

func TestHostRefusesUnknownGameAndOldProtocol(t *testing.T) {
	aKey, _, aEnd, bEnd := twoHosts(t)
	ctx := context.Background()
	if _, err := Host(ctx, aEnd, Self{Key: aKey}, Offer{Game: "chess"}); err == nil {
		t.Fatal("hosted an unknown game")
	}
	_, _, aEnd, bEnd = twoHosts(t)
	errc := make(chan error, 1)
	go func() {
		_, err := Host(ctx, aEnd, Self{Key: aKey}, Offer{Game: "ubuild"})
		errc <- err
	}()
	send(ctx, bEnd, frame{T: "join", Version: "salvo/0", Nonce: strings.Repeat("0", 32)})
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "salvo/0") {
		t.Fatalf("Host = %v", err)
	}
	if _, err := recv(ctx, bEnd, "offer"); !errors.Is(err, ErrDeclined) {
		t.Fatalf("joiner got %v, want a decline", err)
	}
}

func TestLoopbackAgreesOverQUIC(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := Loopback(ctx, LoopbackConfig{Offer: Offer{Game: "oceans"}, HostName: "a", GuestName: "b", Transport: "quic"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Seats[0].Header.Match != p.Seats[1].Header.Match {
		t.Fatal("the two seats agreed on different matches")
	}
}

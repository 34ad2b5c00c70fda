package session

import (
	"context"
	"crypto/rand"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"
	ma "github.com/multiformats/go-multiaddr"

	"github.com/salvo-game/salvo/p2p"
)

// An opponent that announces thousands of addresses (identify takes what
// the peer says) cannot make a stored peer record, two-player or table,
// grow with them: peerAddrs keeps at most maxAddrs, and the address of the
// open connection, the one proven to work, is always among them.
func TestStoredPeerAddressesAreBounded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mk := func(name string) *p2p.Host {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		h, err := p2p.New(ctx, p2p.Config{Key: k, ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, Name: name})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h.Close() })
		return h
	}
	me, them := mk("me"), mk("them")
	if err := me.Libp2p().Connect(ctx, peer.AddrInfo{ID: them.ID(), Addrs: them.Libp2p().Addrs()}); err != nil {
		t.Fatal(err)
	}
	var flood []ma.Multiaddr
	for i := range 5000 {
		flood = append(flood, ma.StringCast(fmt.Sprintf("/ip4/10.%d.%d.%d/tcp/4001", i/65536, i/256%256, i%256)))
	}
	me.Libp2p().Peerstore().AddAddrs(them.ID(), flood, time.Hour)
	got := peerAddrs(me, them.ID())
	if len(got) == 0 || len(got) > maxAddrs {
		t.Fatalf("%d addresses stored for a peer that announced %d, want 1..%d", len(got), len(flood), maxAddrs)
	}
	conn := me.Libp2p().Network().ConnsToPeer(them.ID())[0].RemoteMultiaddr().String()
	if got[0] != conn {
		t.Fatalf("first stored address %s, want the open connection's %s", got[0], conn)
	}
}

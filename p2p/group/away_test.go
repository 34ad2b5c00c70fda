package group

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/p2ptest"
)

// awayDeadline is how soon after a player goes every other player must
// see it gone (issue 14, requirement 3).
const awayDeadline = 5 * time.Second

// waitAway polls tp until it lists p as away (want) or not, failing d
// after start; it returns how long after start that was.
func waitAway(t *testing.T, tp *Topic, p peer.ID, want bool, start time.Time, d time.Duration) time.Duration {
	t.Helper()
	for {
		if _, away := tp.Away()[p]; away == want {
			return time.Since(start)
		}
		if time.Since(start) > d {
			t.Fatalf("%s away: still %v after %v (away list %v)", p2p.ShortID(p), !want, d, tp.Away())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A player whose links die without a word (every byte swallowed, no reset:
// killed behind a NAT, a cable pulled) stays subscribed as far as
// gossipsub knows, for as long as the transport keeps the dead connection
// (30 s and more); the liveness pings show it away within seconds.
func TestDeadLinkShowsPlayerAway(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s := &peerSet{}
	t.Cleanup(func() {
		for _, r := range s.routers {
			r.Close()
		}
		for _, h := range s.hosts {
			h.Close()
		}
	})
	for i := range 3 {
		h, err := p2p.New(ctx, p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}, Name: fmt.Sprintf("peer-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewRouter(h.Libp2p(), Config{})
		if err != nil {
			t.Fatal(err)
		}
		s.hosts, s.routers = append(s.hosts, h), append(s.routers, r)
	}
	if _, err := s.hosts[1].Connect(ctx, s.hosts[0].Invite()); err != nil {
		t.Fatal(err)
	}
	// Player 2 reaches the others only through links that can be cut.
	var links []*p2ptest.LinkProxy
	for _, to := range s.hosts[:2] {
		link, addr := p2ptest.NewLinkProxy(t, to, "tcp")
		if _, err := s.hosts[2].Connect(ctx, addr); err != nil {
			t.Fatal(err)
		}
		links = append(links, link)
	}
	topics := s.joinAll(t, testMatch)
	waitAll(t, topics)
	gone := s.hosts[2].ID()
	time.Sleep(2 * p2p.LivenessEvery) // a few probes answered: no false alarm
	for i, tp := range topics[:2] {
		if away := tp.Away(); len(away) != 0 {
			t.Fatalf("player %d sees %v away while every link is up", i, away)
		}
	}
	for _, l := range links {
		l.Cut()
	}
	cut := time.Now()
	for i, tp := range topics[:2] {
		d := waitAway(t, tp, gone, true, cut, awayDeadline)
		t.Logf("player %d saw the dead player away after %v; still subscribed for gossipsub: %v", i, d.Round(time.Millisecond), len(tp.Peers()) == 2)
	}
}

// A player that leaves the topic is away at once for the others, and no
// longer away once it is back.
func TestLeftPlayerAwayUntilBack(t *testing.T) {
	s := newPeers(t, 3, true)
	topics := s.joinAll(t, testMatch)
	waitAll(t, topics)
	gone := s.hosts[2].ID()
	if err := topics[2].Close(); err != nil {
		t.Fatal(err)
	}
	for _, tp := range topics[:2] {
		waitAway(t, tp, gone, true, time.Now(), awayDeadline)
	}
	back, err := s.routers[2].Join(testMatch, s.ids())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { back.Close() })
	for _, tp := range topics[:2] {
		waitAway(t, tp, gone, false, time.Now(), awayDeadline)
	}
	if _, away := topics[0].Away()[s.hosts[1].ID()]; away {
		t.Fatal("a player that never left is listed away")
	}
}

// A player whose connections all closed (a transport's keep-alive giving
// up in an outage) is dialed again, and is no longer away once it is back
// on the topic: gossipsub itself never dials, and the player would stay
// gone for good, to forfeit at its next turn.
func TestDroppedConnectionIsDialedAgain(t *testing.T) {
	s := newPeers(t, 3, true)
	topics := s.joinAll(t, testMatch)
	waitAll(t, topics)
	lost := s.hosts[2].ID()
	_ = s.hosts[0].Libp2p().Network().ClosePeer(lost)
	d1 := waitAway(t, topics[0], lost, true, time.Now(), awayDeadline)
	d2 := waitAway(t, topics[0], lost, false, time.Now(), 2*RedialMax)
	t.Logf("away after %v, back %v later", d1, d2)
	if n := len(topics[0].Peers()); n != 2 {
		t.Fatalf("%d other players subscribed after the dial, want 2", n)
	}
}

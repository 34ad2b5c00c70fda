package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/session"
)

// FuzzNetworkText feeds what other peers send and the interface shows or
// files away (a LAN peer's offer, an opponent's name, a peer ID): nothing
// may panic, and a name never escapes the transcripts folder.
func FuzzNetworkText(f *testing.F) {
	f.Add("ubuild custom", "calm-heron", "12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN")
	f.Add("", "../../etc/passwd", "")
	f.Add("nosuchgame variant extra", "名前\u202e", "x")
	f.Fuzz(func(t *testing.T, offer, name, peer string) {
		_ = describeOffer(offer)
		_ = shortID(peer)
		n := session.TranscriptName(fairness.Header{Game: "ubuild", Match: peer, Players: []fairness.Player{{Name: "me"}, {Name: name}}}, 0)
		if filepath.Base(n) != n || strings.Contains(n, "..") && strings.ContainsAny(n, `/\`) {
			t.Fatalf("transcript name %q leaves its folder", n)
		}
	})
}

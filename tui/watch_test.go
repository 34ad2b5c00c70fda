package tui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/watch/watchtest"
)

// A LAN peer whose match may be watched is listed in the lobby with a
// Watch entry, and enter watches it: the audit viewer follows it to its
// verified end.
func TestLobbyWatchesAWatchableLANMatch(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, _ := watchtest.PlayTwo(t, ctx, "ubuild", true, nil)
	hs := start(t, Config{Name: "eve", Offline: true}, 100, 30)
	ready := false
	hs.onUI(func() { hs.app.ensureNet(func(*p2p.Host) {}) })
	for deadline := time.Now().Add(20 * time.Second); !ready && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		hs.onUI(func() {
			if n := hs.app.net; n != nil && n.host != nil {
				// What mDNS reports of a player whose watchable match runs.
				n.peers = []p2p.PeerInfo{{ID: p.Hosts[0].ID(), Addrs: p.Hosts[0].Addrs(), Name: "bob", Offer: "watch ubuild standard"}}
				ready = true
			}
		})
	}
	if !ready {
		t.Fatal("the network did not start")
	}
	hs.WaitFunc("bob's watchable match in the peers pane", 10*time.Second, func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "bob") && strings.Contains(l, "watchable: U-Build (standard)") && strings.Contains(l, "[enter] watch") {
				return true
			}
		}
		return false
	})
	hs.Keys(tcell.KeyTab, tcell.KeyEnter)
	hs.WaitFor("Watched", "clean", "won")
}

func TestWatchOffers(t *testing.T) {
	for offer, want := range map[string]bool{"watch ubuild standard": true, "watch air team 4": true, "ubuild standard": false, "watch": false, "": false} {
		if watching(offer) != want {
			t.Errorf("watching(%q) = %v", offer, !want)
		}
	}
	if got := describeOffer("watch air team 4"); !strings.HasPrefix(got, "watchable: ") || !strings.HasSuffix(got, "(team, 4 players)") {
		t.Errorf("describeOffer: %q", got)
	}
}

// The lobby's w opens the matches this player hosts to spectators: the
// header both players sign says so, and while the match runs the host
// offers it on the LAN as watchable.
func TestHostChoosesSpectators(t *testing.T) {
	dir := t.TempDir()
	host := start(t, Config{Name: "bob", DataDir: dir, Timeout: 20 * time.Second}, 100, 30)
	host.Keys("w")
	on := false
	for deadline := time.Now().Add(5 * time.Second); !on && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		host.onUI(func() { on = host.app.watchable })
	}
	if !on {
		t.Fatal("w did not turn spectators on")
	}
	host.Keys("h")
	host.WaitFor("invite code")
	code := host.WaitFile(filepath.Join(dir, InviteFile), 10*time.Second)
	guest := start(t, Config{Name: "ann", Start: StartJoin, Code: code, Timeout: 20 * time.Second}, 100, 30)
	host.WaitFor("vs ann")
	guest.WaitFor("vs bob")
	var offer string
	var watchable bool
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && !watching(offer); time.Sleep(20 * time.Millisecond) {
		host.onUI(func() {
			offer = host.app.net.host.Offer()
			if m := matchOf(host.app); m != nil {
				watchable = m.st.header().Watch
			}
		})
	}
	if !watching(offer) || !watchable {
		t.Fatalf("the host offers %q; the header allows watching: %v", offer, watchable)
	}
	time.Sleep(300 * time.Millisecond) // the host screen's close comes after, and must not take it back
	host.onUI(func() { offer = host.app.net.host.Offer() })
	if !watching(offer) {
		t.Fatalf("the host offers %q while its watchable match runs", offer)
	}
}

package tui

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/style"
)

// TestTableResumesFromTheLobby stops one player's program in the middle of
// a 3-player Air table (its referee stops without a word, its host goes
// away) and starts the interface on its data directory and identity: the
// lobby lists the table as one to resume, enter takes it up, and the table
// plays to its end with the same clean transcript at the resumed player
// and at the others.
func TestTableResumesFromTheLobby(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir, key := t.TempDir(), newTestKey(t)
	tb, err := session.LoopbackGroup(ctx, session.GroupLoopbackConfig{Offer: session.Offer{Game: "air"}, Players: 3,
		Keys: []crypto.PrivKey{nil, nil, key}, Names: []string{"bot-a", "bot-b", "ann"}})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	entry, _ := games.Lookup("air")
	stores := []session.Store{{Dir: t.TempDir()}, {Dir: t.TempDir()}, {Dir: filepath.Join(dir, MatchesDir)}}
	runners := make([]*session.Runner, 3)
	reached := make(chan struct{})
	var once sync.Once
	for s := range 3 {
		res := session.NewResumer(tb.Hosts[s], nil)
		defer res.Close()
		cfg := session.NetPlayConfig{Key: tb.Keys[s], Agent: entry.Bots["strong"](rand.New(rand.NewPCG(uint64(s), 3))), Timeout: time.Minute, Store: stores[s]}
		if s == 2 {
			cfg.Observe = func(n fairness.Note) {
				if n.Seq >= 20 {
					once.Do(func() { close(reached) })
				}
			}
		}
		runners[s] = session.StartGroup(ctx, res, tb.Seats[s], cfg)
	}
	<-reached
	runners[2].Suspend()
	<-runners[2].Done()
	_ = tb.Routers[2].Close()
	_ = tb.Hosts[2].Close()

	again := start(t, Config{Name: "ann", DataDir: dir, Key: key, Timeout: 20 * time.Second}, 100, 30)
	again.Timeout = 60 * time.Second
	again.WaitFor(style.Play+" resume", "at message")
	again.Keys(tcell.KeyTab, tcell.KeyTab)
	again.WaitFor("enter resume")
	again.Keys(tcell.KeyEnter)
	again.WaitFor("vs bot-a, bot-b")
	drive(again, 5)
	for s := range 2 {
		res, err := runners[s].Wait()
		if err != nil || res.Closing != nil || !res.Outcome.Done {
			t.Fatalf("seat %d: %v %+v", s, err, res)
		}
	}
	again.WaitFunc("the end of the match", 30*time.Second, ended)
	match := tb.Seats[0].Header.Match
	sameTranscripts(t, transcriptOf(again), stores[0].Transcript(match))
	if rep := auditFile(t, transcriptOf(again)); rep.Verdict != fairness.Clean {
		t.Fatalf("the resumed player's transcript: %s", rep.Summary())
	}
}

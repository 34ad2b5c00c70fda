package tui

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
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
// goes on, the resumed player's transcript agreeing with the others'.
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

	sv, err := stores[2].Load(tb.Seats[2].Header.Match)
	if err != nil || !sv.InProgress() || !sv.Group {
		t.Fatalf("the stopped table in the store: %+v, %v", sv, err)
	}
	again := start(t, Config{Name: "ann", DataDir: dir, Key: key, Timeout: 20 * time.Second}, 100, 30)
	again.Timeout = 60 * time.Second
	again.WaitFor(style.Play+" resume", "at message")
	again.Keys(tcell.KeyTab, tcell.KeyTab)
	again.WaitFor("enter resume")
	again.Keys(tcell.KeyEnter)
	again.WaitFor("vs bot-a, bot-b")
	drive(again, 5)
	// The table goes on: the resumed player takes back what was sent while
	// it was away and plays on (playing it to its end takes minutes under
	// the race detector; session's and the namespace tests do).
	waitSeq(t, again, sv.Seq+12)
	// Quitting a table of the store only pauses it, as it did here.
	var quit string
	out := false
	again.onUI(func() { ms := matchOf(again.app); quit, out = ms.quitText(), ms.out() || ms.done })
	if !out && !strings.Contains(quit, "Quitting pauses it") || !strings.Contains(quit, "resume it from the lobby") || strings.Contains(quit, "wins by forfeit") {
		t.Fatalf("a stored table's quit text: %q", quit)
	}
	match := tb.Seats[0].Header.Match
	mine := readLines(t, transcriptOf(again))
	theirs := readLines(t, stores[0].Transcript(match))
	for i := range min(len(mine), len(theirs)) {
		if mine[i] != theirs[i] {
			t.Fatalf("line %d of the resumed player's transcript differs from seat 0's", i+1)
		}
	}
}

// readLines reads a file's lines.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

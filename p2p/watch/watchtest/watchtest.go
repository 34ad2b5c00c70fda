// Package watchtest plays matches for the tests of spectators: real
// loopback libp2p hosts, bots with no think time.
package watchtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/session"
)

// PlayTwo plays a 2-player match of game between bots over real
// loopback hosts (session.PlayNet, as netplay does), watchable or not;
// onMessage runs before the match (n = 0, on the test's goroutine) and
// on each message the host's seat accepts or sends (n from 1).
// It returns the pair and each seat's transcript path once the match is
// over.
func PlayTwo(t testing.TB, ctx context.Context, game string, watchable bool, onMessage func(n int, p *session.Pair)) (*session.Pair, [2]string) {
	t.Helper()
	p, err := session.Loopback(ctx, session.LoopbackConfig{Offer: session.Offer{Game: game, Watch: watchable}, HostName: "ann", GuestName: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	if onMessage != nil {
		onMessage(0, p) // before the first: on the test's goroutine
	}
	dir := t.TempDir()
	var paths [2]string
	var wg sync.WaitGroup
	errs := make([]error, 2)
	var n int
	for s := range 2 {
		res := session.NewResumer(p.Hosts[s], nil)
		t.Cleanup(res.Close)
		store := session.Store{Dir: filepath.Join(dir, fmt.Sprint(s))}
		e, _ := games.Lookup(game)
		cfg := session.NetPlayConfig{Key: p.Keys[s], Agent: e.Bots["strong"](rand.New(rand.NewPCG(uint64(s), 3))), Timeout: 20 * time.Second, Store: store,
			Reconnect: session.ReconnectConfig{GiveUp: 15 * time.Second}}
		if s == 0 && onMessage != nil {
			cfg.Observe = func(note fairness.Note) {
				if note.Dir == fairness.DirIn || note.Dir == fairness.DirOut {
					n++
					onMessage(n, p)
				}
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res2 *fairness.Result
			res2, errs[s] = p.Seats[s].PlayNet(ctx, res, s == 1, cfg)
			paths[s] = store.Transcript(p.Seats[s].Header.Match) // named once the match is stored
			if errs[s] == nil && !res2.Outcome.Done {
				errs[s] = fmt.Errorf("no result: %+v", res2)
			}
		}()
	}
	wg.Wait()
	for s, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", s, err)
		}
	}
	return p, paths
}

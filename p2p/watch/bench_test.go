package watch_test

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
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/p2p/watch"
	"github.com/salvo-game/salvo/p2p/watch/watchtest"
)

// BenchmarkCatchUp measures a late spectator's catch-up of a finished
// match (connect, the whole record, every line checked) over loopback:
// a 2-player U-Build match and a 4-player Air table. The first
// MaxWatchers spectators are served by the player, the next by the
// spectators before them. It reports the record's size and the player's
// upload per spectator.
func BenchmarkCatchUp(b *testing.B) {
	b.Run("ubuild-2p", func(b *testing.B) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		p, paths := watchtest.PlayTwo(b, ctx, "ubuild", true, nil)
		catchUp(b, ctx, p.Hosts[0], paths[0])
	})
	b.Run("air-team-4p", func(b *testing.B) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		table, path := playAir(b, ctx)
		catchUp(b, ctx, table.Hosts[0], path)
	})
}

func catchUp(b *testing.B, ctx context.Context, player *p2p.Host, path string) {
	lines := len(fileLines(b, path))
	var size int64
	for _, l := range fileLines(b, path) {
		size += int64(len(l) + 1)
	}
	n := 0
	for b.Loop() {
		b.StopTimer()
		h, err := p2p.New(ctx, p2p.Config{ListenAddrs: []string{"/ip4/127.0.0.1/tcp/0"}})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { h.Close() })
		b.StartTimer()
		rep, err := watch.Watch(ctx, addrInfo(player), watch.Config{Host: h.Libp2p(), Specs: games.Spec, Linger: time.Minute})
		if err != nil || rep.Verdict != fairness.Clean {
			b.Fatalf("%v %v", err, rep)
		}
		n++
	}
	sent := watch.ServerOf(player.Libp2p()).Sent()
	b.ReportMetric(float64(lines), "lines")
	b.ReportMetric(float64(size), "record-bytes")
	b.ReportMetric(float64(sent)/float64(n), "player-upload-bytes/spectator")
}

// playAir plays a 4-player Air team match among bots over loopback.
func playAir(b *testing.B, ctx context.Context) (*session.Table, string) {
	tb, err := session.LoopbackGroup(ctx, session.GroupLoopbackConfig{Offer: session.Offer{Game: "air", Variant: "team", Watch: true}, Players: 4})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { tb.Close() })
	dir := b.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for s := range 4 {
		cfg := session.PlayConfig{Key: tb.Keys[s], Agent: tb.Seats[s].Entry.Bots["strong"](rand.New(rand.NewPCG(uint64(s), 9))),
			Transcript: filepath.Join(dir, fmt.Sprintf("seat%d.jsonl", s)), Timeout: 30 * time.Second}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[s] = tb.Seats[s].Play(ctx, cfg)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return tb, filepath.Join(dir, "seat0.jsonl")
}

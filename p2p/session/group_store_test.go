package session

import (
	"context"

	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p"
	"github.com/salvo-game/salvo/p2p/group"
)

// A table is kept in the match store: listed as in progress while it
// runs, with every player, and marked over once it ended here.
func TestGroupInStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tb, err := LoopbackGroup(ctx, GroupLoopbackConfig{Offer: Offer{Game: "air"}, Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	stores := make([]Store, 3)
	runners := make([]*Runner, 3)
	listed := make(chan Saved, 1)
	for s := range 3 {
		stores[s] = Store{Dir: t.TempDir()}
		res := NewResumer(tb.Hosts[s], nil)
		defer res.Close()
		cfg := NetPlayConfig{Key: tb.Keys[s], Agent: airBots["strong"](rand.New(rand.NewPCG(uint64(s), 1))), Timeout: 20 * time.Second, Store: stores[s]}
		if s == 1 {
			var once sync.Once
			cfg.Observe = func(n fairness.Note) {
				if n.Seq == 3 {
					once.Do(func() {
						l, _ := stores[1].List()
						if len(l) == 1 {
							listed <- l[0]
						}
					})
				}
			}
		}
		runners[s] = StartGroup(ctx, res, tb.Seats[s], cfg)
	}
	for s, r := range runners {
		res, err := r.Wait()
		if err != nil || res.Closing != nil || !res.Outcome.Done {
			t.Fatalf("seat %d: %v %+v", s, err, res)
		}
	}
	select {
	case sv := <-listed:
		if !sv.InProgress() || !sv.Group || sv.Seat != 1 || len(sv.Header.Players) != 3 {
			t.Fatalf("the store listed the running table as %+v", sv)
		}
	default:
		t.Fatal("the running table was not in the store")
	}
	sv, err := stores[1].Load(tb.Seats[1].Header.Match)
	if err != nil || !sv.Over || sv.InProgress() {
		t.Fatalf("the finished table in the store: %+v, %v", sv, err)
	}
}

// A player killed in the middle of a 3-player match (its process gone, its
// connections dropped) and restarted from the store (ResumeMatch, as
// `salvo resume` runs it) within the give-up time continues the match:
// every seat finishes it by the rules, every transcript audits clean and
// all three hold the same messages.
func TestGroupKilledPlayerResumes(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tb, err := LoopbackGroup(ctx, GroupLoopbackConfig{Offer: Offer{Game: "air"}, Players: 3, Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	const victim = 2
	stores := make([]Store, 3)
	runners := make([]*Runner, 3)
	bot := func(s int) NetPlayConfig {
		return NetPlayConfig{Key: tb.Keys[s], Agent: airBots["strong"](rand.New(rand.NewPCG(uint64(s), 1))),
			Timeout: 30 * time.Second, Store: stores[s], Logger: testLog(t), Reconnect: ReconnectConfig{GiveUp: 30 * time.Second}}
	}
	kill := make(chan struct{})
	var killOnce sync.Once
	for s := range 3 {
		stores[s] = Store{Dir: t.TempDir()}
		res := NewResumer(tb.Hosts[s], testLog(t))
		defer res.Close()
		cfg := bot(s)
		if s == victim {
			cfg.Observe = func(n fairness.Note) {
				if n.Seq >= 40 {
					killOnce.Do(func() { close(kill) })
				}
			}
		}
		runners[s] = StartGroup(ctx, res, tb.Seats[s], cfg)
	}
	<-kill
	// kill -9: the process stops and its connections drop.
	runners[victim].Suspend()
	<-runners[victim].Done()
	match := tb.Seats[victim].Header.Match
	sv, err := stores[victim].Load(match)
	if err != nil || !sv.InProgress() || !sv.Group {
		t.Fatalf("the killed player's store: %+v, %v", sv, err)
	}
	_ = tb.Routers[victim].Close()
	_ = tb.Hosts[victim].Close()
	killed := time.Now()
	time.Sleep(time.Second)
	h, err := p2p.New(ctx, p2p.Config{Key: tb.Keys[victim], ListenAddrs: sv.Listen})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rt, err := group.NewRouter(h.Libp2p(), group.Config{Logger: testLog(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	res := NewResumer(h, testLog(t))
	defer res.Close()
	cfg := bot(victim)
	var back atomic.Int64
	cfg.Observe = func(n fairness.Note) {
		if n.Seq > sv.Seq && (n.Dir == fairness.DirIn || n.Dir == fairness.DirOut) {
			back.CompareAndSwap(0, int64(time.Since(killed)))
		}
	}
	cfg.Router = rt
	runners[victim] = ResumeMatch(ctx, res, match, cfg)
	var first []string
	for s, r := range runners {
		res, err := r.Wait()
		if err != nil {
			t.Fatalf("seat %d: %v", s, err)
		}
		if res.Closing != nil || res.Violation != nil || !res.Outcome.Done {
			t.Fatalf("seat %d did not finish by the rules: %+v", s, res.Closing)
		}
		path := stores[s].Transcript(match)
		if rep := audit(t, path); rep.Verdict != fairness.Clean {
			t.Fatalf("seat %d's transcript: %s", s, rep.Summary())
		}
		lines := envelopeLines(t, path)
		if s == 0 {
			first = lines
		} else if fmt.Sprint(lines) != fmt.Sprint(first) {
			t.Fatalf("seat %d holds %d messages, unlike seat 0's %d", s, len(lines), len(first))
		}
	}
	if _, err := stores[victim].Load(match); err != nil {
		t.Fatal(err)
	}
	if back.Load() == 0 {
		t.Fatal("the resumed player never played on")
	}
	t.Logf("killed at message %d of %d; play went on %v after the kill (1 s of it down)", sv.Seq, len(first), time.Duration(back.Load()).Round(time.Millisecond))
}

var airBots = func() map[string]func(*rand.Rand) engine.Agent { e, _ := games.Lookup("air"); return e.Bots }()

// A player who leaves a stored table on purpose signs its forfeit into its
// transcript, and the store no longer offers the table for resuming; no
// word goes to the others (the topic carries envelopes only), who give up
// on it by their give-up time.
func TestGroupLeaveFromStore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tb, err := LoopbackGroup(ctx, GroupLoopbackConfig{Offer: Offer{Game: "air"}, Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	store := Store{Dir: t.TempDir()}
	runners := make([]*Runner, 3)
	reached := make(chan struct{})
	var once sync.Once
	for s := range 3 {
		res := NewResumer(tb.Hosts[s], nil)
		defer res.Close()
		cfg := NetPlayConfig{Key: tb.Keys[s], Agent: airBots["strong"](rand.New(rand.NewPCG(uint64(s), 1))), Timeout: time.Minute, Store: Store{Dir: t.TempDir()}}
		if s == 2 {
			cfg.Store = store
			cfg.Observe = func(n fairness.Note) {
				if n.Seq >= 10 {
					once.Do(func() { close(reached) })
				}
			}
		}
		runners[s] = StartGroup(ctx, res, tb.Seats[s], cfg)
	}
	<-reached
	if err := runners[2].Leave(ctx); err != nil {
		t.Fatal(err)
	}
	match := tb.Seats[2].Header.Match
	sv, err := store.Load(match)
	if err != nil || sv.InProgress() || !strings.Contains(sv.StopReason, "left") {
		t.Fatalf("the left table in the store: %+v, %v", sv, err)
	}
	if rep := audit(t, store.Transcript(match)); rep.Verdict != fairness.Forfeit || !strings.Contains(rep.Summary(), "left the match") {
		t.Fatalf("the leaver's transcript: %s", rep.Summary())
	}
	cancel()
}

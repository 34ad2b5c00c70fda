package oceans

import (
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

var long = flag.Bool("long", false, "run the long statistical tests (1,000 strong-vs-random matches)")

// strongVsRandom plays n matches of the strong bot against the random bot,
// alternating seats, and returns the strong bot's wins.
func strongVsRandom(t testing.TB, n int, seed uint64) int {
	wins := 0
	for i := range n {
		if strongWins(t, i, seed+uint64(i)) {
			wins++
		}
	}
	return wins
}

// strongWins plays match number i of the strong bot against the random bot
// (the strong bot sits in seat i mod 2) and reports whether it won.
func strongWins(t testing.TB, i int, seed uint64) bool {
	strong := engine.Agent(NewStrongBot(rand.New(rand.NewPCG(seed, 11))))
	random := engine.Agent(NewRandomBot(rand.New(rand.NewPCG(seed, 12))))
	strongSeat := engine.Seat(i % 2)
	agents := [2]engine.Agent{strong, random}
	if strongSeat == 1 {
		agents = [2]engine.Agent{random, strong}
	}
	h := newHarness(t, seed, agents[0], agents[1])
	if _, err := h.Play(maxInputs); err != nil {
		t.Fatalf("match %d: %v", i, err)
	}
	w := h.Game.Outcome().Winners
	return len(w) == 1 && w[0] == strongSeat
}

func TestStrongBeatsRandom(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	if *long {
		n = 1000
	}
	wins := strongVsRandom(t, n, 1000)
	rate := float64(wins) / float64(n)
	t.Logf("strong bot beat the random bot in %d of %d matches (%.1f%%), seats alternated", wins, n, 100*rate)
	if rate < 0.8 {
		t.Fatalf("strong bot won only %.1f%% against the random bot", 100*rate)
	}
}

func TestBotsRefuseWhatTheyCannotDecide(t *testing.T) {
	g, _ := New(engine.Setup{Seats: 2})
	for _, bot := range []engine.Agent{NewRandomBot(rand.New(rand.NewPCG(1, 1))), NewStrongBot(rand.New(rand.NewPCG(1, 1)))} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := bot.Decide(ctx, g, 0, engine.Known{}, g.Next()); !errors.Is(err, context.Canceled) {
			t.Errorf("%T with a cancelled context: %v", bot, err)
		}
		if _, err := bot.Decide(context.Background(), g, 0, engine.Known{}, engine.Need{Kind: engine.NeedOpen}); err == nil {
			t.Errorf("%T decided a NeedOpen", bot)
		}
		d, err := bot.Decide(context.Background(), g, 0, engine.Known{}, g.Next())
		if err != nil || len(d.Leaves) != DeckSize {
			t.Errorf("%T commit: %d leaves, %v", bot, len(d.Leaves), err)
		}
		// A move asked of the wrong seat is an error, not a panic.
		if _, err := bot.Decide(context.Background(), g, 1, engine.Known{}, engine.Need{Kind: engine.NeedMove, Seat: 1}); err == nil {
			t.Errorf("%T moved out of turn", bot)
		}
	}
}

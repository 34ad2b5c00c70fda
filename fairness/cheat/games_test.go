package cheat

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// These tests play every cheat kind of the three card and sea games between
// two referees joined by an in-memory pipe (the libp2p version of the same
// table is in cmd/salvo): the cheat must fire, the honest referee must stop
// the match at that message naming seat 1, and the audit of its transcript
// must agree.

// pipeMatch is the outcome of one in-memory match.
type pipeMatch struct {
	res     [2]*fairness.Result
	paths   [2]string
	cheated bool // seat 1's cheat fired
}

// playPipe plays game between two bots of level, seat 1 cheating with kind
// (none if kind is "").
func playPipe(t *testing.T, game, level string, seed uint64, kind string) *pipeMatch {
	t.Helper()
	entry, ok := games.Lookup(game)
	if !ok {
		t.Fatalf("no game %q", game)
	}
	var keys [2]crypto.PrivKey
	players := make([]fairness.Player, 2)
	for s := range keys {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		nonce, err := fairness.NewNonce()
		if err != nil {
			t.Fatal(err)
		}
		keys[s], players[s] = k, fairness.Player{Peer: id.String(), Name: fmt.Sprintf("bot-%d", s), Nonce: nonce}
	}
	h, err := fairness.NewHeader(entry.Spec, "", players)
	if err != nil {
		t.Fatal(err)
	}
	var ch *Peer
	var wrap func(engine.Agent) engine.Agent
	if kind != "" {
		k, err := Lookup(game, kind)
		if err != nil {
			t.Fatal(err)
		}
		ch, wrap = k.Peer()
	}
	ends := [2]*fairnesstest.PipeEnd{}
	ends[0], ends[1] = fairnesstest.Pipe()
	dir := t.TempDir()
	pm := &pipeMatch{paths: [2]string{filepath.Join(dir, "seat0.jsonl"), filepath.Join(dir, "seat1.jsonl")}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var errs [2]error
	var wg sync.WaitGroup
	for s := range 2 {
		agent := entry.Bots[level](mrand.New(mrand.NewPCG(seed, uint64(s))))
		cfg := fairness.Config{Seat: engine.Seat(s), Key: keys[s], Transport: ends[s], Timeout: 30 * time.Second}
		if s == 1 && ch != nil {
			cfg.Hooks = ch.Hooks()
			if wrap != nil {
				agent = wrap(agent)
			}
		} else if kind == Silent {
			// Long enough that a cheater merely slowed down (the race
			// detector on a loaded machine) is not given up on before it
			// goes silent at its fourth message, which once made the
			// cheat never fire; short enough to keep the test quick.
			cfg.Timeout = 1500 * time.Millisecond
		}
		cfg.Agent = agent
		if cfg.Match, err = fairness.NewMatch(entry.Spec, h); err != nil {
			t.Fatal(err)
		}
		tw, err := fairness.CreateTranscript(pm.paths[s], h)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Transcript = tw
		ref, err := fairness.NewReferee(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer tw.Close()
			defer ends[s].Close()
			pm.res[s], errs[s] = ref.Run(ctx)
		}()
	}
	wg.Wait()
	pm.cheated = ch.Cheated()
	if errs[0] != nil {
		t.Fatalf("honest seat: %v", errs[0])
	}
	if errs[1] != nil && !errors.Is(errs[1], io.ErrClosedPipe) {
		t.Fatalf("cheating seat: %v", errs[1])
	}
	return pm
}

// auditFile audits the transcript at path.
func auditFile(t *testing.T, path string) *fairness.Report {
	t.Helper()
	rep, err := fairness.AuditFile(path, games.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// gameKinds lists the games of this file, with the kinds they must have
// besides the generic ones.
var gameKinds = map[string][]string{
	"cards":  {"stacked-deck", "altered-grid", "flip-other-leaf", "card-not-in-hand", "wrong-reload-size", "red-peg-on-sub", "repair-without-power"},
	"oceans": {"changed-facedown", "swapped-facedown", "undrawn-card", "sixth-card", "attack-too-small", "wrong-battle-total"},
	"sea":    {"strength-differs", "harpoon-was-sidewinder", "illegal-path", "forged-own-roll", "destroyer-fires-twice"},
}

func TestEveryGameListsItsCheats(t *testing.T) {
	for game, want := range gameKinds {
		t.Run(game, func(t *testing.T) {
			have := map[string]bool{}
			for _, k := range Kinds(game) {
				if have[k.Name] {
					t.Errorf("kind %q listed twice", k.Name)
				}
				have[k.Name] = true
				if k.About == "" || k.Build == nil {
					t.Errorf("kind %q lacks a description or a builder", k.Name)
				}
			}
			for _, n := range want {
				if !have[n] {
					t.Errorf("no kind %q", n)
				}
			}
			for _, g := range generic {
				if !have[g.Name] {
					t.Errorf("generic kind %q missing", g.Name)
				}
			}
		})
	}
}

var long = flag.Bool("long", false, "play every cheat kind of the three games 40 times per bot level and count the matches that give it no chance")

// TestEveryGameCheatIsCaught plays each kind with both bot levels (and more
// seeds with -long).
func TestEveryGameCheatIsCaught(t *testing.T) {
	seeds := []uint64{1}
	if *long {
		seeds = []uint64{2, 3, 4, 5, 6}
	}
	for _, game := range []string{"cards", "oceans", "sea"} {
		for _, k := range Kinds(game) {
			for _, level := range games.BotLevels {
				for _, seed := range seeds {
					t.Run(fmt.Sprintf("%s/%s/%s/%d", game, k.Name, level, seed), func(t *testing.T) {
						t.Parallel()
						checkCaught(t, playUntilCheat(t, game, level, seed, k.Name), k.Name)
					})
				}
			}
		}
	}
}

// maxAttempts is how many matches a test plays for a cheat whose chance
// depends on how the match goes (the dice are truly random): a destroyer can
// fire twice only while both destroyers are afloat and one has a target,
// a red peg card can be played on the Submarine only once it is found.
// Measured with -long (40 matches per kind and bot level): no chance in 2
// and 1 matches for destroyer-fires-twice (random, strong bots), 3 and 1
// for repair-without-power, 1 and 1 for red-peg-on-sub, none for the rest.
const maxAttempts = 4

// playUntilCheat plays matches until the cheat fires, at most maxAttempts.
func playUntilCheat(t *testing.T, game, level string, seed uint64, kind string) *pipeMatch {
	t.Helper()
	for attempt := 1; ; attempt++ {
		pm := playPipe(t, game, level, seed, kind)
		if pm.cheated || attempt == maxAttempts {
			return pm
		}
		t.Logf("match %d gave the cheat no chance (%s); playing another", attempt, pm.res[0].Outcome.Reason)
	}
}

func checkCaught(t *testing.T, pm *pipeMatch, kind string) {
	t.Helper()
	if !pm.cheated {
		t.Fatalf("the cheat never fired in %d matches", maxAttempts)
	}
	honest := pm.res[0]
	rep := auditFile(t, pm.paths[0])
	if kind == Silent {
		if c := honest.Closing; c == nil || c.Closing != fairness.CloseTimeout || c.Seat != 1 {
			t.Fatalf("closing %+v, want a timeout blaming seat 1", c)
		}
		if rep.Verdict != fairness.Forfeit {
			t.Fatalf("audit: %s", rep.Summary())
		}
		return
	}
	v := honest.Violation
	if v == nil || v.Seat != 1 {
		t.Fatalf("honest seat's violation %v (closing %+v)", v, honest.Closing)
	}
	if rep.Verdict != fairness.Violated || rep.Violation.Seat != 1 || rep.Violation.Seq != v.Seq {
		t.Fatalf("audit: %s; live: %v", rep.Summary(), v)
	}
}

// An honest match over the pipe is clean for both seats, so that the
// harness itself cannot fake a catch.
func TestPipeHonestMatchIsClean(t *testing.T) {
	for _, game := range []string{"cards", "oceans", "sea"} {
		t.Run(game, func(t *testing.T) {
			t.Parallel()
			pm := playPipe(t, game, "strong", 1, "")
			for s, r := range pm.res {
				if r.Violation != nil || r.Closing != nil || !r.Outcome.Done {
					t.Fatalf("seat %d: violation %v closing %+v outcome %+v", s, r.Violation, r.Closing, r.Outcome)
				}
				if rep := auditFile(t, pm.paths[s]); rep.Verdict != fairness.Clean {
					t.Fatalf("seat %d audit: %s", s, rep.Summary())
				}
			}
		})
	}
}

// TestCheatChances (with -long) measures, for every kind and bot level, how
// many of 40 matches give the cheat no chance at all, the figure behind
// maxAttempts.
func TestCheatChances(t *testing.T) {
	if !*long {
		t.Skip("a statistical run: use -long")
	}
	const matches = 40
	var mu sync.Mutex
	missed := map[string]int{}
	t.Cleanup(func() {
		for _, game := range []string{"cards", "oceans", "sea"} {
			for _, k := range Kinds(game) {
				for _, level := range games.BotLevels {
					key := game + "/" + k.Name + "/" + level
					t.Logf("%-40s no chance in %d of %d matches", key, missed[key], matches)
				}
			}
		}
	})
	for _, game := range []string{"cards", "oceans", "sea"} {
		for _, k := range Kinds(game) {
			for _, level := range games.BotLevels {
				key := game + "/" + k.Name + "/" + level
				for i := range uint64(matches) {
					t.Run(fmt.Sprintf("%s/%d", key, i), func(t *testing.T) {
						t.Parallel()
						if pm := playPipe(t, game, level, 100+i, k.Name); !pm.cheated {
							mu.Lock()
							missed[key]++
							mu.Unlock()
						}
					})
				}
			}
		}
	}
}

package fairness_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
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

var update = flag.Bool("update", false, "play and rewrite the generated golden transcripts in testdata (one per game and variant)")

// goldenMatch is one generated golden transcript: a match of random bots
// played by honest referees in memory. The U-Build files without a seat
// count in their name were recorded over real libp2p and are never
// rewritten; these fill in every other game and variant, so that a change
// of any engine's rules or of the protocol shows as an old transcript that
// no longer audits clean.
type goldenMatch struct {
	game, variant string
	seats         int
	seed          uint64
}

func (g goldenMatch) file() string {
	return fmt.Sprintf("%s-%s-%dp.jsonl", g.game, g.variant, g.seats)
}

// generated lists a match for every game and variant that has no
// recorded transcript (recorded, in TestGoldenTranscripts).
var generated = []goldenMatch{
	{"ubuild", "custom-17", 2, 1},
	{"ubuild", "custom-18", 2, 1},
	{"ubuild", "custom-19", 2, 1},
	{"cards", "standard", 2, 1},
	{"cards", "beginner", 2, 1},
	{"oceans", "standard", 2, 1},
	{"sea", "standard", 2, 1},
	{"air", "standard", 2, 1},
	{"air", "standard", 3, 1},
	{"air", "ffa", 3, 1},
	{"air", "team", 4, 1},
	{"air", "maxdamage", 2, 1},
}

// TestGeneratedGoldenTranscripts audits every generated golden transcript
// (after playing them again, with -update): each must stay clean with the
// match played to its end. Every variant of every game is covered.
func TestGeneratedGoldenTranscripts(t *testing.T) {
	covered := map[string]bool{"ubuild/standard": true, "ubuild/custom": true, "ubuild/classic": true} // recorded
	for _, g := range generated {
		covered[g.game+"/"+g.variant] = true
	}
	for _, e := range games.All() {
		for _, v := range e.Spec.Variants {
			if !covered[e.Spec.Name+"/"+v] {
				t.Errorf("no golden transcript of %s %s", e.Spec.Name, v)
			}
		}
	}
	for _, g := range generated {
		t.Run(g.file(), func(t *testing.T) {
			path := filepath.Join("testdata", g.file())
			if *update {
				data := playGolden(t, g, true)
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rep := auditFile(t, path)
			if rep.Verdict != fairness.Clean || !rep.Outcome.Done {
				t.Fatalf("audit: %s", rep.Summary())
			}
		})
	}
}

// BenchmarkRefereeMatch plays one whole match of random bots between
// honest referees in memory, with no transcript on disk: the cost of the
// referee's own work (staging, signing, checking, cloning for the agents
// and the observers) around the engine.
func BenchmarkRefereeMatch(b *testing.B) {
	for _, g := range []goldenMatch{{"ubuild", "standard", 2, 1}, {"cards", "standard", 2, 1}} {
		b.Run(g.game, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				playGolden(b, g, false)
			}
		})
	}
}

// playGolden plays g between honest referees with the game's random bots
// and returns seat 0's transcript (nil unless keep).
func playGolden(tb testing.TB, g goldenMatch, keep bool) []byte {
	tb.Helper()
	spec, ok := games.Spec(g.game)
	if !ok {
		tb.Fatalf("no game %s", g.game)
	}
	keys := make([]crypto.PrivKey, g.seats)
	players := make([]fairness.Player, g.seats)
	ids := make([]string, g.seats)
	for i := range keys {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			tb.Fatal(err)
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			tb.Fatal(err)
		}
		nonce, err := fairness.NewNonce()
		if err != nil {
			tb.Fatal(err)
		}
		keys[i], ids[i] = k, id.String()
		players[i] = fairness.Player{Peer: ids[i], Name: []string{"ann", "bob", "cy", "di"}[i], Nonce: nonce}
	}
	h, err := fairness.NewHeader(spec, g.variant, players)
	if err != nil {
		tb.Fatal(err)
	}
	transports := make([]fairness.Transport, g.seats)
	if g.seats == 2 {
		a, b := fairnesstest.Pipe()
		defer a.Close()
		defer b.Close()
		transports[0], transports[1] = a, b
	} else {
		hub := fairnesstest.NewHub(ids, g.seed)
		defer hub.Close()
		for i := range transports {
			transports[i] = hub.Member(i)
		}
	}
	var tw *fairness.TranscriptWriter
	path := filepath.Join(tb.TempDir(), "seat0.jsonl")
	if keep {
		if tw, err = fairness.CreateTranscript(path, h); err != nil {
			tb.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	refs := make([]*fairness.Referee, g.seats)
	for s := range refs {
		m, err := fairness.NewMatch(spec, h)
		if err != nil {
			tb.Fatal(err)
		}
		bot, _ := games.Bot(g.game, "random", rand.New(rand.NewPCG(g.seed, uint64(s))))
		cfg := fairness.Config{Match: m, Seat: engine.Seat(s), Key: keys[s], Agent: bot, Transport: transports[s]}
		if s == 0 {
			cfg.Transcript = tw
		}
		if refs[s], err = fairness.NewReferee(cfg); err != nil {
			tb.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, g.seats)
	for s, r := range refs {
		wg.Go(func() {
			res, err := r.Run(ctx)
			if err == nil && (res.Violation != nil || res.Closing != nil || !res.Outcome.Done) {
				err = fmt.Errorf("match ended %+v", res)
			}
			errs[s] = err
		})
	}
	wg.Wait()
	for s, err := range errs {
		if err != nil {
			tb.Fatalf("seat %d: %v", s, err)
		}
	}
	if !keep {
		return nil
	}
	if err := tw.Close(); err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

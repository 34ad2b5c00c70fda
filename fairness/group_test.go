package fairness_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// groupTable is one Air match among n referees over a fairnesstest.Hub.
type groupTable struct {
	keys    []crypto.PrivKey
	paths   []string
	results []*fairness.Result
	errs    []error
}

// playGroup plays Air among n strong bots, each seat giving up on a
// silent one after timeout. Seat silent (if not -1) goes silent after its
// first decisions and is called off once the others are done.
func playGroup(t *testing.T, n int, timeout time.Duration, silent, decisions int) *groupTable {
	t.Helper()
	entry, _ := games.Lookup("air")
	gt := &groupTable{keys: make([]crypto.PrivKey, n), paths: make([]string, n), results: make([]*fairness.Result, n), errs: make([]error, n)}
	players := make([]fairness.Player, n)
	ids := make([]string, n)
	for i := range gt.keys {
		gt.keys[i], _, _ = crypto.GenerateEd25519Key(nil)
		id, _ := peer.IDFromPrivateKey(gt.keys[i])
		nonce, _ := fairness.NewNonce()
		players[i] = fairness.Player{Peer: id.String(), Name: "bot", Nonce: nonce}
		ids[i] = players[i].Peer
	}
	h, err := fairness.NewHeader(entry.Spec, "ffa", players)
	if err != nil {
		t.Fatal(err)
	}
	hb := fairnesstest.NewHub(ids, 9)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	silentCtx, callOff := context.WithCancel(ctx)
	defer callOff()
	var wg, others sync.WaitGroup
	for i := 0; i < n; i++ {
		m, err := fairness.NewMatch(entry.Spec, h)
		if err != nil {
			t.Fatal(err)
		}
		gt.paths[i] = filepath.Join(dir, string(rune('a'+i))+".jsonl")
		tw, err := fairness.CreateTranscript(gt.paths[i], h)
		if err != nil {
			t.Fatal(err)
		}
		agent := entry.Bots["strong"](rand.New(rand.NewPCG(uint64(i), 1)))
		runCtx := ctx
		if i == silent {
			agent, runCtx = &stallAfter{Agent: agent, n: decisions}, silentCtx
		} else {
			others.Add(1)
		}
		ref, err := fairness.NewReferee(fairness.Config{Match: m, Seat: engine.Seat(i), Key: gt.keys[i], Agent: agent, Transport: hb.Member(i), Transcript: tw, Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			gt.results[i], gt.errs[i] = ref.Run(runCtx)
			tw.Close()
			if i == silent {
				return
			}
			others.Done()
			if gt.errs[i] != nil {
				cancel() // a seat that stopped early: end the others too
			}
		}(i)
	}
	others.Wait()
	callOff()
	wg.Wait()
	hb.Close()
	return gt
}

// Three and four referees play Mission Command Air over a reordering group
// transport, shared deck and joint dice included, and every transcript
// audits clean and identical.
func TestGroupMatchWithSharedDeck(t *testing.T) {
	if testing.Short() {
		t.Skip("a full multi-player Air match takes a few seconds")
	}
	for _, n := range []int{3, 4} {
		gt := playGroup(t, n, 30*time.Second, -1, 0)
		var first []byte
		for i := 0; i < n; i++ {
			if gt.errs[i] != nil || gt.results[i].Closing != nil || !gt.results[i].Outcome.Done {
				t.Fatalf("%d players, seat %d: %v %+v", n, i, gt.errs[i], gt.results[i])
			}
			data, _ := os.ReadFile(gt.paths[i])
			if first == nil {
				first = data
			} else if string(data) != string(first) {
				t.Fatalf("%d players: seat %d's transcript differs from seat 0's", n, i)
			}
			if rep := auditFile(t, gt.paths[i]); rep.Verdict != fairness.Clean {
				t.Fatalf("%d players, seat %d: %s", n, i, rep.Summary())
			}
		}
		t.Logf("%d players: %s", n, gt.results[0].Outcome.Reason)
	}
}

// stallAfter is an agent that decides like its inner one n times, then
// holds its next decision until its match is called off: its seat goes
// silent mid-match.
type stallAfter struct {
	engine.Agent
	n int
}

func (a *stallAfter) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, need engine.Need) (engine.Decision, error) {
	if a.n == 0 {
		<-ctx.Done()
		return engine.Decision{}, errors.New("stalled")
	}
	a.n--
	return a.Agent.Decide(ctx, g, seat, sec, need)
}

// Finding 11: in a 3-player Air match one player goes silent; each other
// seat records its forfeit in its own name. Their records tell the same
// end, so together they agree on it, instead of being called disputed
// because different seats signed them.
func TestGroupForfeitRecordsAgree(t *testing.T) {
	const silent = 2
	// Long enough that the race detector, which slows the shared deck's
	// arithmetic about tenfold, does not make a busy seat look silent.
	giveUp := time.Second
	if raceEnabled {
		giveUp = 8 * time.Second
	}
	gt := playGroup(t, 3, giveUp, silent, 3)
	var reps []*fairness.Report
	for s := range 2 {
		c := gt.results[s].Closing
		if gt.errs[s] != nil || c == nil || c.Seat != silent || c.Closing != fairness.CloseTimeout {
			t.Fatalf("seat %d: %v, closing %+v; want a timeout of seat %d", s, gt.errs[s], c, silent)
		}
		rep := auditFile(t, gt.paths[s])
		if rep.Verdict != fairness.Forfeit || !strings.Contains(rep.Detail, "not witnessed") {
			t.Fatalf("seat %d's record alone: %s", s, rep.Summary())
		}
		reps = append(reps, rep)
	}
	if reps[0].Closing.By == reps[1].Closing.By {
		t.Fatal("both records hold one writer's closing: nothing to compare")
	}
	j, err := fairness.AuditJoint(reps)
	if err != nil {
		t.Fatal(err)
	}
	if j.Verdict != fairness.Forfeit || !slices.Equal(j.Outcome.Winners, []engine.Seat{0, 1}) || !strings.Contains(j.Detail, "all 2 records agree") {
		t.Fatalf("joint verdict: %s", j.Summary())
	}
	t.Log(j.Summary())
}

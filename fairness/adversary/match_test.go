package adversary

import (
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// match is one honest match: every seat's record, as its honest referee
// wrote it, and its audit. In a match played to its end every record is
// the same, line for line; in one where a seat went silent, the others
// each end with their own signed record of its forfeit.
type match struct {
	name    string // game, number of players, and how it ended
	h       fairness.Header
	keys    []crypto.PrivKey
	records [][]string // by seat: the header, then one line per message
	reports []*fairness.Report
}

// stall makes seat go silent after its first decisions, for a match in
// which it forfeits.
type stall struct {
	seat      int
	decisions int
}

// table is what every seat of a match needs to play.
type table struct {
	h     fairness.Header
	keys  []crypto.PrivKey
	entry games.Entry
}

// newTable seats n players of game; variant "" is the game's own for two
// and the free-for-all for more.
func newTable(game, variant string, n int) (*table, error) {
	entry, ok := games.Lookup(game)
	if !ok {
		return nil, fmt.Errorf("no game %q", game)
	}
	t := &table{entry: entry, keys: make([]crypto.PrivKey, n)}
	players := make([]fairness.Player, n)
	for s := range t.keys {
		k, _, err := crypto.GenerateEd25519Key(rand.Reader)
		if err != nil {
			return nil, err
		}
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			return nil, err
		}
		nonce, err := fairness.NewNonce()
		if err != nil {
			return nil, err
		}
		t.keys[s], players[s] = k, fairness.Player{Peer: id.String(), Name: fmt.Sprintf("bot-%d", s), Nonce: nonce}
	}
	if variant == "" && n > 2 {
		variant = "ffa"
	}
	h, err := fairness.NewHeader(entry.Spec, variant, players)
	t.h = h
	return t, err
}

// transports returns one transport per seat: a pipe for two, a hub for
// more, and what closes them.
func (t *table) transports() ([]fairness.Transport, func()) {
	n := len(t.keys)
	if n == 2 {
		a, b := fairnesstest.Pipe()
		return []fairness.Transport{a, b}, a.Close
	}
	ids := make([]string, n)
	for i, p := range t.h.Players {
		ids[i] = p.Peer
	}
	hub := fairnesstest.NewHub(ids, 1)
	ts := make([]fairness.Transport, n)
	for i := range ts {
		ts[i] = hub.Member(i)
	}
	return ts, hub.Close
}

// play plays one honest match of game among n strong bots in dir. With
// st, that seat goes silent and the others give up on it after a second
// (eight under the race detector);
// without, every seat's record must agree and audit clean.
func play(game, variant string, n int, seed uint64, st *stall, dir string) (*match, error) {
	t, err := newTable(game, variant, n)
	if err != nil {
		return nil, err
	}
	ts, closeAll := t.transports()
	defer closeAll()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	silent, silence := context.WithCancel(ctx) // the silent seat's: it ends once the others have
	defer silence()
	paths := make([]string, n)
	errs := make([]error, n)
	var wg, others sync.WaitGroup
	for s := range n {
		m, err := fairness.NewMatch(t.entry.Spec, t.h)
		if err != nil {
			return nil, err
		}
		paths[s] = filepath.Join(dir, fmt.Sprintf("%s-%d-%d-seat%d.jsonl", game, n, seed, s))
		tw, err := fairness.CreateTranscript(paths[s], t.h)
		if err != nil {
			return nil, err
		}
		agent := t.entry.Bots["strong"](mrand.New(mrand.NewPCG(seed, uint64(s))))
		cfg := fairness.Config{Match: m, Seat: engine.Seat(s), Key: t.keys[s], Agent: agent, Transport: ts[s], Transcript: tw, Timeout: time.Minute}
		runCtx := ctx
		if st != nil {
			cfg.Timeout = time.Second
			if raceEnabled {
				cfg.Timeout = 8 * time.Second // the race detector slows a busy seat about tenfold
			}
			if s == st.seat {
				cfg.Agent, runCtx = &silentAfter{Agent: agent, n: st.decisions}, silent
			} else {
				others.Add(1)
			}
		}
		ref, err := fairness.NewReferee(cfg)
		if err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer tw.Close()
			res, err := ref.Run(runCtx)
			switch {
			case st != nil && s == st.seat:
				return // stopped: its record ends where it went silent
			case st != nil:
				errs[s] = err
				others.Done()
			case err == nil && (res.Closing != nil || res.Violation != nil || !res.Outcome.Done):
				errs[s] = fmt.Errorf("seat %d: the honest match did not end by its rules: %+v", s, res)
			default:
				errs[s] = err
			}
		}()
	}
	others.Wait()
	silence()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s with %d players: %w", game, n, err)
		}
	}
	mt := &match{name: fmt.Sprintf("%s/%dp", game, n), h: t.h, keys: t.keys}
	if st != nil {
		mt.name += fmt.Sprintf("/seat %d silent", st.seat)
	}
	for s, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		mt.records = append(mt.records, strings.Split(strings.TrimSpace(string(b)), "\n"))
		rep, err := fairness.AuditFile(p, games.Spec)
		if err != nil {
			return nil, err
		}
		mt.reports = append(mt.reports, rep)
		if st == nil && (rep.Verdict != fairness.Clean || !slices.Equal(mt.records[s], mt.records[0])) {
			return nil, fmt.Errorf("%s: seat %d's record differs from seat 0's or audits %s", mt.name, s, rep.Summary())
		}
	}
	return mt, nil
}

// silentAfter is an agent that decides like its inner one n times, then
// holds its next decision until its match is called off.
type silentAfter struct {
	engine.Agent
	n int
}

func (a *silentAfter) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, need engine.Need) (engine.Decision, error) {
	if a.n == 0 {
		<-ctx.Done()
		return engine.Decision{}, ctx.Err()
	}
	a.n--
	return a.Agent.Decide(ctx, g, seat, sec, need)
}

// honestMatches plays, once per test binary, one match of every game for
// two players and Air for three and four.
var honestMatches = sync.OnceValues(func() ([]*match, error) {
	dir, err := os.MkdirTemp("", "salvo-adversary-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	type table struct {
		game    string
		n       int
		st      *stall
		variant string
	}
	var tables []table
	for _, e := range games.All() {
		tables = append(tables, table{e.Spec.Name, 2, nil, ""})
	}
	// Air for three and four, two matches in which a seat goes silent and
	// forfeits (finding 11: in the four-player team one, each other seat
	// records the forfeit in its own name), and a free-for-all of three
	// in which a silent seat is taken off the table and the others play on.
	tables = append(tables, table{"air", 3, nil, ""}, table{"air", 4, nil, ""}, table{"sea", 2, &stall{seat: 1, decisions: 6}, ""},
		table{"air", 4, &stall{seat: 3, decisions: 3}, "team"}, table{"air", 3, &stall{seat: 2, decisions: 3}, ""})
	out := make([]*match, len(tables))
	errs := make([]error, len(tables))
	var wg sync.WaitGroup
	for i, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = play(tb.game, tb.variant, tb.n, uint64(i+1), tb.st, dir)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
})

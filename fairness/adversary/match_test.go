package adversary

import (
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"path/filepath"
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

// match is one honest match played to its end: every seat's record is the
// same, line for line.
type match struct {
	name   string // game and number of players
	h      fairness.Header
	keys   []crypto.PrivKey
	lines  []string // the record: the header, then one line per message
	report *fairness.Report
}

// table is what every seat of a match needs to play.
type table struct {
	h     fairness.Header
	keys  []crypto.PrivKey
	entry games.Entry
}

func newTable(game string, n int) (*table, error) {
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
	variant := ""
	if n > 2 {
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

// play plays one honest match of game among n random bots in dir and
// returns it once every seat's record agrees and audits clean.
func play(game string, n int, seed uint64, dir string) (*match, error) {
	t, err := newTable(game, n)
	if err != nil {
		return nil, err
	}
	ts, closeAll := t.transports()
	defer closeAll()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	paths := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for s := range n {
		m, err := fairness.NewMatch(t.entry.Spec, t.h)
		if err != nil {
			return nil, err
		}
		paths[s] = filepath.Join(dir, fmt.Sprintf("%s-%d-seat%d.jsonl", game, n, s))
		tw, err := fairness.CreateTranscript(paths[s], t.h)
		if err != nil {
			return nil, err
		}
		agent := t.entry.Bots["strong"](mrand.New(mrand.NewPCG(seed, uint64(s))))
		ref, err := fairness.NewReferee(fairness.Config{Match: m, Seat: engine.Seat(s), Key: t.keys[s], Agent: agent, Transport: ts[s], Transcript: tw, Timeout: time.Minute})
		if err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer tw.Close()
			var res *fairness.Result
			res, errs[s] = ref.Run(ctx)
			if errs[s] == nil && (res.Closing != nil || res.Violation != nil || !res.Outcome.Done) {
				errs[s] = fmt.Errorf("seat %d: the honest match did not end by its rules: %+v", s, res)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s with %d players: %w", game, n, err)
		}
	}
	var first []byte
	for s, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if s == 0 {
			first = b
		} else if string(b) != string(first) {
			return nil, fmt.Errorf("%s with %d players: seat %d's record differs from seat 0's", game, n, s)
		}
	}
	rep, err := fairness.AuditFile(paths[0], games.Spec)
	if err != nil {
		return nil, err
	}
	if rep.Verdict != fairness.Clean {
		return nil, fmt.Errorf("%s with %d players: the honest record audits %s", game, n, rep.Summary())
	}
	return &match{name: fmt.Sprintf("%s/%dp", game, n), h: t.h, keys: t.keys, lines: strings.Split(strings.TrimSpace(string(first)), "\n"), report: rep}, nil
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
		game string
		n    int
	}
	var tables []table
	for _, e := range games.All() {
		tables = append(tables, table{e.Spec.Name, 2})
	}
	tables = append(tables, table{"air", 3}, table{"air", 4})
	out := make([]*match, len(tables))
	errs := make([]error, len(tables))
	var wg sync.WaitGroup
	for i, tb := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = play(tb.game, tb.n, uint64(i+1), dir)
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

package fairness

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/libp2p/go-libp2p/core/crypto"
	"github.com/libp2p/go-libp2p/core/peer"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

func testKeys(t testing.TB, n int) []crypto.PrivKey {
	t.Helper()
	keys := make([]crypto.PrivKey, n)
	for i := range keys {
		k, _, err := crypto.GenerateEd25519Key(nil)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = k
	}
	return keys
}

func testHeader(t testing.TB, spec engine.Spec, keys []crypto.PrivKey) Header {
	t.Helper()
	players := make([]Player, len(keys))
	for i, k := range keys {
		id, err := peer.IDFromPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		nonce, err := NewNonce()
		if err != nil {
			t.Fatal(err)
		}
		players[i] = Player{Peer: id.String(), Name: []string{"ann", "bob", "cy", "di"}[i], Nonce: nonce}
	}
	h, err := NewHeader(spec, "", players)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

type side struct {
	res  *Result
	err  error
	path string
}

// playPeek plays one peek match between two referees over an in-memory
// pipe; seat 1 may cheat.
func playPeek(t *testing.T, seed uint64, cheat testCheat, bot1 *peekBot, timeout time.Duration) [2]side {
	t.Helper()
	return playPeekOpts(t, seed, cheat, bot1, timeout, nil)
}

// playPeekWith plays an honest peek match with each seat's transport
// wrapped by wrap.
func playPeekWith(t *testing.T, seed uint64, wrap func(Transport) Transport) [2]side {
	t.Helper()
	return playPeekOpts(t, seed, nil, nil, 5*time.Second, wrap)
}

func playPeekOpts(t *testing.T, seed uint64, cheat testCheat, bot1 *peekBot, timeout time.Duration, wrap func(Transport) Transport) [2]side {
	t.Helper()
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	dir := t.TempDir()
	ends := [2]*fairnesstest.PipeEnd{}
	ends[0], ends[1] = fairnesstest.Pipe()
	var out [2]side
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for s := 0; s < 2; s++ {
		m, err := NewMatch(peekSpec, h)
		if err != nil {
			t.Fatal(err)
		}
		out[s].path = filepath.Join(dir, []string{"seat0.jsonl", "seat1.jsonl"}[s])
		tw, err := CreateTranscript(out[s].path, h)
		if err != nil {
			t.Fatal(err)
		}
		agent := &peekBot{r: rand.New(rand.NewPCG(seed, uint64(s)))}
		cfg := Config{Match: m, Seat: engine.Seat(s), Key: keys[s], Agent: agent, Transport: ends[s], Transcript: tw, Timeout: timeout}
		if wrap != nil {
			cfg.Transport = wrap(ends[s])
		}
		if s == 1 {
			cfg.Hooks = hooksOf(cheat)
			if bot1 != nil {
				bot1.r = agent.r
				cfg.Agent = bot1
			}
		}
		ref, err := NewReferee(cfg)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func(s int) {
			defer wg.Done()
			out[s].res, out[s].err = ref.Run(ctx)
			tw.Close()
			ends[s].Close()
		}(s)
	}
	wg.Wait()
	return out
}

func auditFile(t *testing.T, path string) *Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := Audit(f, peekSpecs)
	if err != nil {
		t.Fatalf("audit %s: %v", path, err)
	}
	return rep
}

func TestHonestMatchIsCleanOnBothSides(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		out := playPeek(t, seed, nil, nil, 5*time.Second)
		for s, o := range out {
			if o.err != nil {
				t.Fatalf("seed %d seat %d: %v", seed, s, o.err)
			}
			if o.res.Violation != nil || o.res.Closing != nil || !o.res.Outcome.Done {
				t.Fatalf("seed %d seat %d: result %+v", seed, s, o.res)
			}
		}
		if a, b := out[0].res.Outcome, out[1].res.Outcome; a.Winners[0] != b.Winners[0] {
			t.Fatalf("seed %d: the seats disagree on the winner: %v vs %v", seed, a, b)
		}
		a, _ := os.ReadFile(out[0].path)
		b, _ := os.ReadFile(out[1].path)
		if string(a) != string(b) {
			t.Fatalf("seed %d: the two transcripts differ", seed)
		}
		rep := auditFile(t, out[0].path)
		if rep.Verdict != Clean {
			t.Fatalf("seed %d: audit says %s", seed, rep.Summary())
		}
		if len(rep.Revealed) != 8+2 {
			t.Fatalf("seed %d: audit saw %d opened values, want all 8 digits and 2 choices", seed, len(rep.Revealed))
		}
	}
}

// The agent decides on its own goroutine while the referee's loop may
// handle a frame, so it is shown copies of the game and of its seat's
// secrets: an agent that scribbles on what it was shown changes nothing
// in the match (on the live game, its next message stated a state hash
// the other side refused).
func TestAgentIsShownCopies(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		out := playPeek(t, seed, nil, &peekBot{meddle: true}, 5*time.Second)
		for s, o := range out {
			if o.err != nil || o.res.Violation != nil || o.res.Closing != nil || !o.res.Outcome.Done {
				t.Fatalf("seed %d seat %d: %v, %+v", seed, s, o.err, o.res)
			}
		}
	}
}

// testCheat alters what seat 1's referee sends, as fairness/cheat's do.
type testCheat interface {
	AlterInput(m *Match, sec *Secrets, st Step, in *WireInput) bool
	AlterEnvelope(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope
}

// hooksOf plugs c into a referee's hooks the way fairness/cheat's Peer
// does (which this package's tests cannot import): once c has altered
// something, or an input its engine refused has gone out, the referee
// stops at its next wait.
func hooksOf(c testCheat) *Hooks {
	if c == nil {
		return nil
	}
	var fired bool
	return &Hooks{
		Input: func(m *Match, sec *Secrets, st Step, in *WireInput) { fired = c.AlterInput(m, sec, st, in) || fired },
		Envelope: func(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
			out := c.AlterEnvelope(m, e, key)
			fired = fired || len(out) != 1 || out[0] != e
			return out
		},
		Refused: func(Step, error) bool { fired = true; return true },
		Done:    func() bool { return fired },
	}
}

// envelopeCheat alters envelopes of seat 1 at its nth send.
type envelopeCheat struct {
	nth   int
	sent  int
	alter func(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope
}

func (c *envelopeCheat) AlterInput(*Match, *Secrets, Step, *WireInput) bool { return false }

func (c *envelopeCheat) AlterEnvelope(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
	c.sent++
	if c.sent != c.nth {
		return []*Envelope{e}
	}
	return c.alter(m, e, key)
}

// inputCheat alters the first input of a kind.
type inputCheat struct {
	kind  InputKind
	done  bool
	alter func(in *WireInput) bool
}

func (c *inputCheat) AlterInput(m *Match, sec *Secrets, st Step, in *WireInput) bool {
	if c.done || in.T != c.kind {
		return false
	}
	c.done = c.alter(in)
	return c.done
}

func (c *inputCheat) AlterEnvelope(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
	return []*Envelope{e}
}

func resign(e *Envelope, key crypto.PrivKey) *Envelope {
	from := e.From
	e.Sign(key)
	e.From = from
	return e
}

func TestCheatsAreCaughtLiveAndByAudit(t *testing.T) {
	otherKey := testKeys(t, 1)[0]
	cases := []struct {
		name  string
		cheat testCheat
		bot   *peekBot
		want  error  // what the honest side's violation wraps
		in    string // a word the reason must contain
	}{
		{"wrong salt", &inputCheat{kind: InMove, alter: func(in *WireInput) bool {
			if len(in.Open) == 0 {
				return false
			}
			in.Open[0].Salt[0] ^= 1
			return true
		}}, nil, ErrCommitment, "root"},
		{"opens another digit", &inputCheat{kind: InMove, alter: func(in *WireInput) bool {
			if len(in.Open) == 0 {
				return false
			}
			in.Open[0].Slot.Index = (in.Open[0].Slot.Index + 1) % 4
			return true
		}}, nil, ErrCommitment, "rules call for"},
		{"lies about a digit", &inputCheat{kind: InMove, alter: func(in *WireInput) bool {
			if len(in.Open) == 0 {
				return false
			}
			in.Move = []byte(`{"value":42}`)
			return true
		}}, nil, engine.ErrIllegal, "committed digit"},
		{"forged dice preimage", &inputCheat{kind: InShare, alter: func(in *WireInput) bool {
			in.Link = strings.Repeat("ab", 32)
			return true
		}}, nil, ErrChain, "preimage"},
		{"illegal digits revealed at the end", &inputCheat{kind: "none"}, &peekBot{digits: []byte{7, 11, 12, 13}}, engine.ErrIllegal, "not 0..9"},
		{"wrong state hash", &envelopeCheat{nth: 2, alter: func(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
			b, err := DecodeBody(e.Body)
			if err != nil {
				panic(err)
			}
			b.State = strings.Repeat("0", 64)
			e.Body, _ = marshalCompact(b)
			return []*Envelope{resign(e, key)}
		}}, nil, ErrStateHash, "state hash"},
		{"signed by another key", &envelopeCheat{nth: 2, alter: func(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
			return []*Envelope{resign(e, otherKey)}
		}}, nil, ErrSignature, "signature"},
		{"replayed from another match", &envelopeCheat{nth: 2, alter: func(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
			e.Match = strings.Repeat("0", 64)
			return []*Envelope{resign(e, key)}
		}}, nil, ErrOtherMatch, "another match"},
		{"out of turn", &envelopeCheat{nth: 3, alter: func(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
			extra, err := m.Draft([]WireInput{{T: InMove, Move: []byte(`{"ask":0}`)}}, m.StateHash(), key)
			if err != nil {
				panic(err)
			}
			return []*Envelope{e, extra}
		}}, nil, ErrOutOfTurn, "turn"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := playPeek(t, 7, tc.cheat, tc.bot, 3*time.Second)
			honest := out[0]
			if honest.err != nil {
				t.Fatalf("honest side failed: %v", honest.err)
			}
			v := honest.res.Violation
			if v == nil {
				t.Fatalf("honest side saw no violation; result %+v", honest.res)
			}
			if v.Seat != 1 || !errors.Is(v, tc.want) || !strings.Contains(v.Error(), tc.in) {
				t.Fatalf("violation = %v (seat %d), want seat 1 and %v mentioning %q", v, v.Seat, tc.want, tc.in)
			}
			if honest.res.Closing == nil || honest.res.Closing.Closing != CloseViolation {
				t.Fatalf("no violation closing record: %+v", honest.res.Closing)
			}
			rep := auditFile(t, honest.path)
			if rep.Verdict != Violated || rep.Violation.Seat != 1 || rep.Violation.Seq != v.Seq {
				t.Fatalf("audit: %s; want a violation by seat 1 at message %d", rep.Summary(), v.Seq)
			}
			if !strings.Contains(rep.Summary(), tc.in) {
				t.Fatalf("audit summary %q does not say %q", rep.Summary(), tc.in)
			}
		})
	}
}

// silentAfter stops answering after n envelopes (it never sends more).
type silentAfter struct {
	n, sent int
}

func (s *silentAfter) AlterInput(*Match, *Secrets, Step, *WireInput) bool { return false }

func (s *silentAfter) AlterEnvelope(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
	s.sent++
	if s.sent > s.n {
		return nil
	}
	return []*Envelope{e}
}

func TestSilentPeerForfeitsAfterTimeout(t *testing.T) {
	out := playPeek(t, 3, &silentAfter{n: 2}, nil, 300*time.Millisecond)
	honest := out[0]
	if honest.err != nil {
		t.Fatal(honest.err)
	}
	c := honest.res.Closing
	if c == nil || c.Closing != CloseTimeout || c.Seat != 1 {
		t.Fatalf("closing = %+v, want a timeout blaming seat 1", c)
	}
	if w := honest.res.Outcome.Winners; len(w) != 1 || w[0] != 0 {
		t.Fatalf("winners = %v, want seat 0", w)
	}
	rep := auditFile(t, honest.path)
	if rep.Verdict != Forfeit || !strings.Contains(rep.Detail, "seat 1") {
		t.Fatalf("audit: %s", rep.Summary())
	}
}

func TestTamperedTranscriptsNeverAuditClean(t *testing.T) {
	out := playPeek(t, 11, nil, nil, 5*time.Second)
	data, err := os.ReadFile(out[0].path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	if len(lines) < 6 {
		t.Fatalf("transcript too short: %d lines", len(lines))
	}
	join := func(ls ...[]string) string {
		var b strings.Builder
		for _, l := range ls {
			for _, s := range l {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	edit := func(i int, from, to string) string {
		c := append([]string(nil), lines...)
		c[i] = strings.Replace(c[i], from, to, 1)
		return join(c)
	}
	cases := map[string]string{
		"cut short":       join(lines[:len(lines)-1]),
		"cut in half":     join(lines[:len(lines)/2]),
		"edited body":     edit(3, `"t":"`, `"t":"x`),
		"edited state":    edit(4, `"state":"`, `"state":"0`),
		"reordered":       join(lines[:3], lines[4:5], lines[3:4], lines[5:]),
		"repeated line":   join(lines[:4], lines[3:4], lines[4:]),
		"repeated at end": join(lines, lines[len(lines)-1:]),
		"dropped line":    join(lines[:3], lines[4:]),
		"header edited":   edit(0, `"name":"ann"`, `"name":"eve"`),
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			rep, err := Audit(strings.NewReader(text), peekSpecs)
			if err != nil {
				return // unreadable is not clean either
			}
			if rep.Verdict == Clean {
				t.Fatalf("tampered transcript audits clean")
			}
			if rep.Verdict == Violated {
				t.Fatalf("a file edit was blamed on a player: %s", rep.Summary())
			}
		})
	}
}

func TestAuditRejectsGarbage(t *testing.T) {
	for _, in := range []string{"", "hello\n", "{}\n", `{"salvo":"other"}` + "\n", "\x00\x01\x02"} {
		if _, err := Audit(strings.NewReader(in), peekSpecs); !errors.Is(err, ErrNotTranscript) {
			t.Errorf("Audit(%q) error = %v, want ErrNotTranscript", in, err)
		}
	}
}

// In a two-seat match the other seat is the only sender: an envelope it
// sends in our name with its own (so bad) signature is dropped, never
// blamed on us, as it was on main (the honest referee recorded its own
// violation).
func TestTwoSeatForgeryInOurNameIsNotOurs(t *testing.T) {
	cheat := &envelopeCheat{nth: 2, alter: func(m *Match, e *Envelope, key crypto.PrivKey) []*Envelope {
		forged := *e
		forged.Seq++
		forged.Prev = hexDigest(e.Hash())
		forged.Sign(key)
		forged.From = m.Header().Players[0].Peer
		return []*Envelope{e, &forged}
	}}
	out := playPeek(t, 5, cheat, nil, 3*time.Second)
	honest := out[0]
	if honest.err != nil {
		t.Fatal(honest.err)
	}
	if v := honest.res.Violation; v != nil && v.Seat == 0 {
		t.Fatalf("the honest seat blames itself: %v", v)
	}
	if c := honest.res.Closing; c != nil && c.Seat == 0 {
		t.Fatalf("the honest seat's closing blames itself: %+v", c)
	}
	if honest.res.Dropped != 1 {
		t.Fatalf("dropped %d frames, want the forgery", honest.res.Dropped)
	}
}

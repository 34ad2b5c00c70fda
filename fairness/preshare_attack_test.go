package fairness

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
)

// Pre-shares (preshare.go) open a new input; these are its attacks, each
// checked live (Match.Accept on a peer that replayed the record) and by
// the audit of a record that holds it.

// rolls is a scripted test game: joint rolls and one-seat decisions in a
// fixed order, so that a test knows exactly what follows what.
type rolls struct {
	script []engine.Need
	at     int
	vals   []int
}

// rollsScript: two rolls in a row, a decision of seat 0, a roll seat 0
// acts on, a decision of seat 1, a last roll.
var rollsScript = []engine.Need{
	{Kind: engine.NeedRandom, Seat: engine.NoSeat, Name: "a", Count: 1, Bound: 6},
	{Kind: engine.NeedRandom, Seat: engine.NoSeat, Name: "b", Count: 1, Bound: 6},
	{Kind: engine.NeedMove, Seat: 0, Prompt: "seat 0 decides"},
	{Kind: engine.NeedRandom, Seat: 0, Name: "c", Count: 1, Bound: 6},
	{Kind: engine.NeedMove, Seat: 1, Prompt: "seat 1 decides"},
	{Kind: engine.NeedRandom, Seat: engine.NoSeat, Name: "d", Count: 1, Bound: 6},
}

var rollsSpec = engine.Spec{
	Name: "rolls", Title: "Rolls (test game)", Rules: "rolls/1", Variants: []string{"standard"},
	MinSeats: 2, MaxSeats: 3,
	New: func(engine.Setup) (engine.Game, error) { return &rolls{script: rollsScript}, nil },
}

func rollsSpecs(name string) (engine.Spec, bool) { return rollsSpec, name == "rolls" }

func (g *rolls) Next() engine.Need {
	if g.at >= len(g.script) {
		return engine.Need{}
	}
	return g.script[g.at]
}

func (g *rolls) Apply(in engine.Input) ([]engine.Event, error) {
	n := g.Next()
	if n.Kind == engine.NeedNone || in.Kind != n.Kind || n.Kind == engine.NeedMove && in.Seat != n.Seat {
		return nil, engine.Illegal("the script waits for %s", n.Kind)
	}
	g.vals = append(g.vals, in.Random...)
	g.at++
	return nil, nil
}

func (g *rolls) MustOpen(engine.Seat, []byte) ([]engine.Slot, error) { return nil, nil }

func (g *rolls) Hash() engine.Digest {
	return engine.Digest(newHasher("rolls").int(g.at).str(fmt.Sprint(g.vals)).sum())
}

func (g *rolls) Outcome() engine.Outcome {
	if g.at < len(g.script) {
		return engine.Outcome{}
	}
	return engine.Outcome{Done: true, Winners: []engine.Seat{0}, Reason: "the script ended"}
}

func (g *rolls) Clone() engine.Game {
	c := *g
	c.vals = append([]int(nil), g.vals...)
	return &c
}

// preTable builds a record of a rolls match message by message: its own
// Match signs what the seats send, the record keeps every envelope.
type preTable struct {
	t    *testing.T
	h    Header
	keys []crypto.PrivKey
	m    *Match
	dice []*Dice
	envs []*Envelope
}

// newPreTable starts a rolls match of n seats whose dice chains have links
// links each (and continue).
func newPreTable(t *testing.T, n, links int) *preTable {
	t.Helper()
	keys := testKeys(t, n)
	h := testHeader(t, rollsSpec, keys)
	m, err := NewMatch(rollsSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	tb := &preTable{t: t, h: h, keys: keys, m: m}
	for s := range n {
		seed := newHasher("test seed").int(s).sum()
		tb.dice = append(tb.dice, newDice(m.ID(), engine.Seat(s), seed, links, true))
	}
	return tb
}

// link returns seat's dice link at position k as a share's fields.
func (tb *preTable) link(seat engine.Seat, k int) (string, string) {
	l, next, err := tb.dice[seat].Share(k)
	if err != nil {
		tb.t.Fatal(err)
	}
	if next == nil {
		return hexDigest(l), ""
	}
	return hexDigest(l), hexDigest(*next)
}

func (tb *preTable) hello(seat engine.Seat) WireInput {
	return WireInput{T: InHello, Tip: hexDigest(tb.dice[seat].Tip()), Links: tb.dice[seat].Len()}
}

// share is seat's honest share of the roll the match is at.
func (tb *preTable) share(seat engine.Seat) WireInput {
	st, _ := tb.m.Next()
	l, next := tb.link(seat, tb.m.used[seat]+1)
	return WireInput{T: InShare, Roll: st.Roll, Link: l, Next: next}
}

// pre is seat's honest next pre-share.
func (tb *preTable) pre(seat engine.Seat) WireInput {
	pos, _ := tb.m.preshareFrom(seat)
	l, next := tb.link(seat, pos)
	return WireInput{T: InPreshare, Link: l, Next: next}
}

func move() WireInput { return WireInput{T: InMove, Move: []byte(`{}`)} }

// send stages and seals an honest message of seat.
func (tb *preTable) send(seat engine.Seat, ins ...WireInput) {
	tb.t.Helper()
	for _, in := range ins {
		if _, err := tb.m.Stage(seat, in); err != nil {
			tb.t.Fatalf("seat %d's honest %s: %v", seat, in.T, err)
		}
	}
	e, err := tb.m.Seal(seat, ins, tb.keys[seat])
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.envs = append(tb.envs, e)
}

// start plays both hellos and seat 1's share of roll a: seat 0 says
// hello, seat 1 says hello and shares roll a first (the last sender goes
// first), and seat 0 then owes its share of a.
func (tb *preTable) start() {
	tb.send(0, tb.hello(0))
	tb.send(1, tb.hello(1), tb.share(1))
}

// send1 adds in to the last message: it re-seals that message with in
// appended (the preTable's match replays the record without it first).
func (tb *preTable) send1(in WireInput) {
	tb.t.Helper()
	last := tb.envs[len(tb.envs)-1]
	body, err := DecodeBody(last.Body)
	if err != nil {
		tb.t.Fatal(err)
	}
	seat := tb.h.Seat(last.From)
	tb.envs = tb.envs[:len(tb.envs)-1]
	tb.m = tb.replay()
	tb.send(seat, append(body.Inputs, in)...)
}

// replay returns a fresh peer's match that accepted the whole record.
func (tb *preTable) replay() *Match {
	tb.t.Helper()
	m, err := NewMatch(rollsSpec, tb.h)
	if err != nil {
		tb.t.Fatal(err)
	}
	for _, e := range tb.envs {
		if _, err := m.Accept(e); err != nil {
			tb.t.Fatalf("message %d: %v", e.Seq, err)
		}
	}
	return m
}

// refused checks that seat's message of inputs, signed for the next place,
// is refused with want live (a peer that holds the record so far) and by
// the audit of the record that ends with it, blaming seat both times.
func (tb *preTable) refused(seat engine.Seat, want error, ins ...WireInput) {
	tb.t.Helper()
	m := tb.replay()
	e, err := m.Draft(ins, m.StateHash(), tb.keys[seat])
	if err != nil {
		tb.t.Fatal(err)
	}
	_, err = m.Accept(e)
	var v *Violation
	if !errors.As(err, &v) || v.Seat != seat || !errors.Is(err, want) {
		tb.t.Fatalf("live: got %v, want a violation by seat %d wrapping %v", err, seat, want)
	}
	rep := tb.audit(append(tb.envs[:len(tb.envs):len(tb.envs)], e))
	if rep.Verdict != Violated || rep.Violation.Seat != seat || !errors.Is(rep.Violation.Err, want) {
		tb.t.Fatalf("audit: %s, want a violation by seat %d wrapping %v", rep.Summary(), seat, want)
	}
}

// audit audits a record of envs.
func (tb *preTable) audit(envs []*Envelope) *Report {
	tb.t.Helper()
	var buf bytes.Buffer
	hb, err := marshalCompact(tb.h)
	if err != nil {
		tb.t.Fatal(err)
	}
	buf.Write(append(hb, '\n'))
	for _, e := range envs {
		b, err := EncodeEnvelope(e)
		if err != nil {
			tb.t.Fatal(err)
		}
		buf.Write(append(b, '\n'))
	}
	rep, err := Audit(&buf, rollsSpecs)
	if err != nil {
		tb.t.Fatal(err)
	}
	return rep
}

// The honest flow: seat 1 closes its message with two pre-shares, and seat
// 0's one message completes rolls a and b (its share of a; then its share
// of b, seat 1's pre-share taking seat 1's place) and makes its decision.
// Every peer and the audit agree, and the record has no message of seat 1
// between.
func TestPreshareCompletesRollsInTheOtherSeatsMessage(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.send1(tb.pre(1))
	tb.send1(tb.pre(1))
	if n := tb.m.Preshared(1); n != 2 {
		t.Fatalf("%d pre-shares pending, want 2", n)
	}
	a := tb.share(0)
	if _, err := tb.m.Stage(0, a); err != nil {
		t.Fatal(err)
	}
	if st, _ := tb.m.Next(); st.Kind != InShare || st.Seat != 0 || st.Roll != 1 {
		t.Fatalf("after roll a the match waits for %+v, want seat 0's share of roll 1 (seat 1's came ahead)", st)
	}
	b := tb.share(0)
	tb.m = tb.replay()
	tb.send(0, a, b, move())
	if tb.m.rolls != 2 || tb.m.Preshared(1) != 0 {
		t.Fatalf("rolls %d, pre-shares pending %d; want 2 and 0", tb.m.rolls, tb.m.Preshared(1))
	}
	if got, want := tb.replay().StateHash(), tb.m.StateHash(); got != want {
		t.Fatal("a peer that replayed the record holds another state")
	}
	if rep := tb.audit(tb.envs); rep.Verdict != Incomplete {
		t.Fatalf("audit: %s", rep.Summary())
	}
}

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

// soloScript: a joint roll, then soloRolls rolls that take seat 0's share
// alone (no game of Salvo has one: they reach the backstop of continued
// chains), a joint roll and a decision.
func soloScript() []engine.Need {
	out := []engine.Need{rollsScript[0]}
	for range soloRolls {
		out = append(out, engine.Need{Kind: engine.NeedRandom, Seat: 0, Seats: []engine.Seat{0}, Name: "solo", Count: 1, Bound: 6})
	}
	return append(out, rollsScript[1], rollsScript[2])
}

const soloRolls = 15

// openScript: a joint roll, a forced opening (of nothing) by each seat, a
// joint roll and a decision.
var openScript = []engine.Need{
	rollsScript[0],
	{Kind: engine.NeedOpen, Seat: 0, Prompt: "seat 0 opens"},
	{Kind: engine.NeedOpen, Seat: 1, Prompt: "seat 1 opens"},
	rollsScript[1], rollsScript[2],
}

// relayScript: two rolls of seat 1 alone, then a joint roll and a
// decision: a run of rolls whose first places are one seat's.
var relayScript = []engine.Need{
	{Kind: engine.NeedRandom, Seat: 1, Seats: []engine.Seat{1}, Name: "r1", Count: 1, Bound: 6},
	{Kind: engine.NeedRandom, Seat: 1, Seats: []engine.Seat{1}, Name: "r2", Count: 1, Bound: 6},
	rollsScript[0], rollsScript[2],
}

var rollsSpec = engine.Spec{
	Name: "rolls", Title: "Rolls (test game)", Rules: "rolls/1", Variants: []string{"standard", "solo", "open", "relay", "tie", "tieend"},
	MinSeats: 2, MaxSeats: 3,
	New: func(s engine.Setup) (engine.Game, error) {
		switch s.Variant {
		case "solo":
			return &rolls{script: soloScript()}, nil
		case "open":
			return &rolls{script: openScript}, nil
		case "relay":
			return &rolls{script: relayScript}, nil
		case "tie":
			return &tieRolls{rolls{script: tieScript}}, nil
		case "tieend":
			return &tieEndRolls{tieRolls{rolls{script: tieScript}}}, nil
		}
		return &rolls{script: rollsScript}, nil
	},
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
	ls := make([]int, n)
	for i := range ls {
		ls[i] = links
	}
	return newPreTableOf(t, "standard", ls)
}

// newPreTableOf starts a rolls match of variant whose seat s has dice
// chains of links[s] links.
func newPreTableOf(t *testing.T, variant string, links []int) *preTable {
	t.Helper()
	keys := testKeys(t, len(links))
	h, err := NewHeader(rollsSpec, variant, testHeader(t, rollsSpec, keys).Players)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMatch(rollsSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	tb := &preTable{t: t, h: h, keys: keys, m: m}
	for s, n := range links {
		seed := newHasher("test seed").int(s).sum()
		tb.dice = append(tb.dice, newDice(m.ID(), engine.Seat(s), seed, n, true))
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
	tb.refusedEnvelope(seat, want, e)
}

// refusedEnvelope checks that e, signed by seat for the next place, is
// refused with want (nil: any error) live and by the audit, blaming seat
// both times.
func (tb *preTable) refusedEnvelope(seat engine.Seat, want error, e *Envelope) {
	tb.t.Helper()
	_, err := tb.replay().Accept(e)
	var v *Violation
	if !errors.As(err, &v) || v.Seat != seat || want != nil && !errors.Is(err, want) {
		tb.t.Fatalf("live: got %v, want a violation by seat %d wrapping %v", err, seat, want)
	}
	rep := tb.audit(append(tb.envs[:len(tb.envs):len(tb.envs)], e))
	if rep.Verdict != Violated || rep.Violation.Seat != seat || want != nil && !errors.Is(rep.Violation.Err, want) {
		tb.t.Fatalf("audit: %s, want a violation by seat %d wrapping %v", rep.Summary(), seat, want)
	}
}

// refusedInLast is refused for the record's last message with extra
// inputs at its end, signed by its sender in its place.
func (tb *preTable) refusedInLast(want error, extra ...WireInput) {
	tb.t.Helper()
	last := tb.envs[len(tb.envs)-1]
	body, err := DecodeBody(last.Body)
	if err != nil {
		tb.t.Fatal(err)
	}
	keep := tb.envs
	tb.envs = tb.envs[:len(tb.envs)-1]
	defer func() { tb.envs = keep }()
	tb.refused(tb.h.Seat(last.From), want, append(body.Inputs, extra...)...)
}

// audit audits a record of envs.
func (tb *preTable) audit(envs []*Envelope) *Report {
	tb.t.Helper()
	rep, err := Audit(tb.record(envs), rollsSpecs)
	if err != nil {
		tb.t.Fatal(err)
	}
	return rep
}

// record returns the transcript of envs.
func (tb *preTable) record(envs []*Envelope) *bytes.Buffer {
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
	return &buf
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

// preAt is seat's link at position k as a pre-share.
func (tb *preTable) preAt(seat engine.Seat, k int) WireInput {
	l, next := tb.link(seat, k)
	return WireInput{T: InPreshare, Link: l, Next: next}
}

// shareAt is seat's link at position k as its share of roll.
func (tb *preTable) shareAt(seat engine.Seat, k, roll int) WireInput {
	l, next := tb.link(seat, k)
	return WireInput{T: InShare, Roll: roll, Link: l, Next: next}
}

// A pre-share sent where the match waits for the other seat's decision
// would be void at once, and the one who decides would have seen it: it
// is refused. Seat 1 completes roll b, the match waits for seat 0's move.
func TestAttackPreshareBeforeADecision(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.send(0, tb.share(0), tb.shareAt(0, 2, 1))
	tb.refused(1, ErrPreshare, tb.share(1), tb.preAt(1, 3))
}

// A pre-share meets a decision before its roll: it is void, and the roll
// after the decision takes the seat's next link, one the decider never
// saw. The voided link offered again as the share of that roll fails the
// chain, live and in the audit.
func TestAttackVoidedPreshareCountsInNoRoll(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.send1(tb.pre(1)) // link 2: roll b
	tb.send1(tb.pre(1)) // link 3: meant for roll c, after seat 0's move
	tb.send(0, tb.shareAt(0, 1, 0), tb.shareAt(0, 2, 1), move())
	if n := tb.m.Preshared(1); n != 0 || tb.m.used[1] != 3 {
		t.Fatalf("after seat 0's move seat 1 has %d pre-shares pending and %d links used; want 0 and 3 (link 3 void)", n, tb.m.used[1])
	}
	if st, _ := tb.m.Next(); st.Kind != InShare || st.Seat != 1 || st.Roll != 2 {
		t.Fatalf("the match waits for %+v, want seat 1's share of roll 2", st)
	}
	tb.refused(1, ErrChain, tb.shareAt(1, 3, 2))
	tb.send(1, tb.shareAt(1, 4, 2))
}

// A pre-share is its sender's own link: seat 0 sending seat 1's next link
// as its pre-share fails seat 0's chain.
func TestAttackPreshareOfTheOtherSeatsLink(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.refused(0, ErrChain, tb.share(0), tb.shareAt(0, 2, 1), tb.preAt(1, 2))
}

// A pre-share is the seat's next link, in chain order: one that skips a
// link fails the chain.
func TestAttackPreshareSkipsALink(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.refusedInLast(ErrChain, tb.preAt(1, 3))
	tb.refusedInLast(ErrChain, tb.preAt(1, 2), tb.preAt(1, 4))
}

// A pre-share names no roll and carries nothing but its link.
func TestAttackPreshareCarriesMore(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	in := tb.pre(1)
	in.Roll = 1
	tb.refusedInLast(ErrPreshare, in)
	in = tb.pre(1)
	in.Name = "b"
	tb.refusedInLast(ErrPreshare, in)
}

// A pre-share only closes a message: where the seat's own share is due it
// sends the share.
func TestAttackPreshareWhereItsOwnShareIsDue(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.refused(0, ErrPreshare, tb.share(0), tb.preAt(0, 2))
}

// Two versions of a message, one with pre-shares and one without, are an
// equivocation like any two versions of one place.
func TestAttackPreshareEquivocation(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	without := tb.envs[len(tb.envs)-1]
	tb.send1(tb.pre(1))
	m := tb.replay()
	_, err := m.Accept(without)
	var v *Violation
	if !errors.As(err, &v) || v.Seat != 1 || !errors.Is(err, ErrEquivocation) {
		t.Fatalf("got %v, want seat 1's equivocation", err)
	}
}

// Continued chains: a seat that names its next chain's tip while the
// other seat has pre-shares pending could pick that chain to suit them;
// naming it voids them, so sending that link as a pre-share or not would
// be a choice to void them or not. It is refused: seat 0, whose chain has
// two links, closes its message with its second (naming its next chain)
// while seat 1's pre-share for roll b is pending. Without seat 1's
// pre-share it may.
func TestAttackPreshareNamesANewChainAgainstPendingPreshares(t *testing.T) {
	tb := newPreTableOf(t, "open", []int{2, 64})
	tb.start()
	tb.send1(tb.pre(1))
	open := WireInput{T: InOpen}
	pre := tb.preAt(0, 2)
	if pre.Next == "" {
		t.Fatal("link 2 of a two-link chain names no next chain")
	}
	tb.refused(0, ErrPreshare, tb.share(0), open, pre)
	tb = newPreTableOf(t, "open", []int{2, 64})
	tb.start()
	tb.send(0, tb.share(0), open, tb.preAt(0, 2))
}

// The backstop, for a roll that takes one seat's share alone: seat 0's
// solo rolls bring it to its chain's last link while seat 1's pre-share is
// pending. There it must name its next chain (it may not keep an old one
// going), and naming it voids seat 1's pre-share: the joint roll after
// takes a link the new chain was not chosen against.
func TestAttackNewChainAgainstPendingPreshares(t *testing.T) {
	end := soloRolls + 1
	tb := newPreTableOf(t, "solo", []int{end, 64})
	tb.start()
	tb.send1(tb.pre(1))
	ins := []WireInput{tb.share(0)}
	for k := 2; k < end; k++ {
		ins = append(ins, tb.shareAt(0, k, k-1))
	}
	last := tb.shareAt(0, end, end-1)
	if last.Next == "" {
		t.Fatal("the chain's last link names no next chain")
	}
	keep := last
	keep.Next = ""
	tb.refused(0, ErrChain, append(ins, keep)...)
	tb.send(0, append(ins, last)...)
	if n := tb.m.Preshared(1); n != 0 {
		t.Fatalf("seat 1 has %d pre-shares pending after seat 0 named a new chain, want 0", n)
	}
	if st, _ := tb.m.Next(); st.Kind != InShare || st.Seat != 0 || st.Need.Name != "b" {
		t.Fatalf("the match waits for %+v, want seat 0's share of b", st)
	}
	if tb.m.used[1] != 2 {
		t.Fatalf("seat 1 used %d links, want 2 (its pre-share void)", tb.m.used[1])
	}
}

// Pre-shares are for two-player matches only.
func TestAttackPreshareInAThreePlayerMatch(t *testing.T) {
	tb := newPreTable(t, 3, 64)
	tb.send(0, tb.hello(0))
	tb.send(1, tb.hello(1))
	// Seat 2's hello completes the table; it shares roll a first.
	tb.refused(2, errPreshareTable, tb.hello(2), tb.shareAt(2, 1, 0), tb.preAt(2, 2))
	// Nor from a seat that would send one at a table of two: its share
	// leaves the match waiting for another's share (no decision), and its
	// next link goes with it.
	tb.send(2, tb.hello(2), tb.shareAt(2, 1, 0))
	st, _ := tb.m.Next()
	if st.Seat == 2 || st.Kind != InShare {
		t.Fatalf("after seat 2's share the match waits for %+v", st)
	}
	tb.refused(st.Seat, errPreshareTable, tb.shareAt(st.Seat, 1, 0), tb.preAt(st.Seat, 2))
}

// No link before both hellos: the other seat has not committed its chain,
// and its hello, the step the match waits for, is a decision.
func TestAttackPreshareBeforeEveryHello(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.refused(0, ErrPreshare, tb.hello(0), tb.preAt(0, 1))
}

// At most maxPreshares pending per seat.
func TestAttackTooManyPreshares(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	var ins []WireInput
	for k := 2; k < 2+maxPreshares+1; k++ {
		ins = append(ins, tb.preAt(1, k))
	}
	tb.refusedInLast(ErrPreshare, ins...)
}

// A message at a parallel group's place that closes with a pre-share is
// one contribution all the same: the members after it keep their places.
// Seat 0's move alone opens the group of roll c (seat 1's share, then seat
// 0's as a member); seat 1 shares and pre-shares for roll d, and seat 0's
// member, sent at once, still takes its place.
func TestPreshareKeepsTheMembersOfAParallelGroup(t *testing.T) {
	tb := newPreTable(t, 2, 64)
	tb.start()
	tb.send(0, tb.share(0), tb.shareAt(0, 2, 1))
	tb.send(1, tb.share(1))
	tb.send(0, move())
	if tb.m.group == nil {
		t.Fatal("no parallel group after seat 0's move")
	}
	seq, _, _, _, ok := tb.m.MemberPlace(0, 0)
	if !ok {
		t.Fatal("seat 0 owes no member's place after its move")
	}
	member, err := tb.m.Member(0, seq, tb.shareAt(0, 3, 2), func(e *Envelope) error { return e.Sign(tb.keys[0]) })
	if err != nil {
		t.Fatal(err)
	}
	tb.send(1, tb.share(1), tb.preAt(1, 4))
	m := tb.replay()
	if _, err := m.Accept(member); err != nil {
		t.Fatalf("seat 0's member after seat 1's message with a pre-share: %v", err)
	}
}

// A share that names a next chain voids the other seat's pre-shares but
// for the one the roll in progress takes: that one goes with the old
// chain's last link, fixed long before. Seat 0's chain has two links; its
// share of roll b names its next chain; seat 1's pre-share for b still
// completes b, and its pre-share for the roll after is void.
func TestPreshareOfTheRollInProgressOutlivesANewChain(t *testing.T) {
	tb := newPreTableOf(t, "standard", []int{2, 64})
	tb.start()
	tb.send1(tb.pre(1))
	tb.send1(tb.pre(1))
	b := tb.shareAt(0, 2, 1)
	if b.Next == "" {
		t.Fatal("link 2 of a two-link chain names no next chain")
	}
	tb.send(0, tb.share(0), b)
	if tb.m.rolls != 2 || tb.m.Preshared(1) != 0 || tb.m.used[1] != 3 {
		t.Fatalf("rolls %d, seat 1's pre-shares pending %d, links used %d; want 2, 0 and 3", tb.m.rolls, tb.m.Preshared(1), tb.m.used[1])
	}
}

// Flights counts a dice-only flight after a share that names a next chain
// as one that answers a choice (of that chain), like one after a decision:
// no pre-share could have saved it (a pre-share must not be out before a
// new chain is chosen). Seat 0 shares rolls a and b, seat 1 then shares b:
// with chains of one link every share of seat 0 names a next chain, and
// seat 1's flight answers that choice; with chains of 64 it answers none.
func TestFlightsCountANewChainAsAChoice(t *testing.T) {
	for _, c := range []struct{ links, after int }{{1, 1}, {64, 0}} {
		tb := newPreTableOf(t, "standard", []int{c.links, 64})
		tb.start()
		tb.send(0, tb.shareAt(0, 1, 0), tb.shareAt(0, 2, 1))
		tb.send(1, tb.share(1))
		f, err := CountFlights(tb.record(tb.envs), rollsSpecs)
		if err != nil {
			t.Fatal(err)
		}
		if f.DiceOnly != 2 || f.DiceAfterChoice != c.after {
			t.Fatalf("chains of %d links: %+v, want 2 dice-only flights, %d after a choice", c.links, f, c.after)
		}
	}
}

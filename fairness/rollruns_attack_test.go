package fairness

import (
	"errors"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/games"

	"github.com/libp2p/go-libp2p/core/crypto"
)

// Runs of rolls (runs.go, rollsRun): the shares of rolls that follow one
// another whatever their values travel at once, one message a place. In
// the rolls test game rolls a and b follow the hellos; each seat says
// hello alone, so the run after seat 1's hello is seat 1's and seat 0's
// shares of a (the last sender first), then seat 0's and seat 1's of b
// (a later roll of a run takes its seats in seat order).

// rollRunTable plays both hellos alone, seat 0's chains having links[0]
// links and seat 1's links[1].
func rollRunTable(t *testing.T, links ...int) *preTable {
	t.Helper()
	tb := newPreTableOf(t, "standard", links)
	tb.send(0, tb.hello(0))
	tb.send(1, tb.hello(1))
	return tb
}

// placesOf returns the group's places as seat, roll and link position.
func placesOf(m *Match) [][3]int {
	if m.group == nil {
		return nil
	}
	var out [][3]int
	for _, p := range m.group.places {
		out = append(out, [3]int{int(p.Seat), p.Roll, p.Pos})
	}
	return out
}

// memberOf signs seat's envelope for place seq of the group the table's
// match is at, holding ins, as a member states it (the base's state).
func (tb *preTable) memberOf(seat engine.Seat, seq uint64, ins ...WireInput) *Envelope {
	tb.t.Helper()
	g := tb.m.group
	body, err := EncodeBody(&Body{Inputs: ins, State: hexDigest(g.state)})
	if err != nil {
		tb.t.Fatal(err)
	}
	e := &Envelope{Match: hexDigest(tb.m.ID()), Seq: seq, Prev: hexDigest(g.id), Body: body}
	if err := e.Sign(tb.keys[seat]); err != nil {
		tb.t.Fatal(err)
	}
	return e
}

// take accepts member e on the table's match and keeps it in the record.
func (tb *preTable) take(e *Envelope) {
	tb.t.Helper()
	if _, err := tb.m.Accept(e); err != nil {
		tb.t.Fatalf("honest member %d: %v", e.Seq, err)
	}
	tb.envs = append(tb.envs, e)
}

// refusedOutOfPlace checks that e, signed by seat but for no place it may
// fill now, is refused live as seat's signed violation wrapping want, and
// that a record holding it there neither audits clean nor names another
// seat (a message out of its place proves nothing by itself in a file:
// needsWitness).
func (tb *preTable) refusedOutOfPlace(seat engine.Seat, want error, e *Envelope) {
	tb.t.Helper()
	var v *Violation
	if _, err := tb.replay().Accept(e); !errors.As(err, &v) || v.Seat != seat || !v.Signed || !errors.Is(err, want) {
		tb.t.Fatalf("message %d out of place: %v, want seat %d's signed violation wrapping %v", e.Seq, err, seat, want)
	}
	if rep := tb.audit(append(slices.Clone(tb.envs), e)); rep.Verdict == Clean || rep.Violation != nil && rep.Violation.Seat != seat {
		tb.t.Fatalf("a record with seat %d's message %d out of place: %s", seat, e.Seq, rep.Summary())
	}
}

// The run's places, and the honest flow: seat 1 chains its share of a,
// and seat 0's shares of a and b and seat 1's of b, all signed at the
// base, complete both rolls in one flight. Before runs of rolls seat 0's
// share of b waited for roll a: a flight of dice that followed no choice.
func TestRunOfRollsTakesEveryShareAtOnce(t *testing.T) {
	tb := rollRunTable(t, 64, 64)
	want := [][3]int{{1, 0, 1}, {0, 0, 1}, {0, 1, 2}, {1, 1, 2}}
	if got := placesOf(tb.m); !slices.Equal(got, want) {
		t.Fatalf("places %v, want %v (seat, roll, link)", got, want)
	}
	tb.send(1, tb.share(1))
	for _, e := range tb.runMembers() {
		tb.take(e)
	}
	if st, _ := tb.m.Next(); st.Kind != InMove || st.Seat != 0 || tb.m.rolls != 2 {
		t.Fatalf("after the run the match waits for %+v at roll %d, want seat 0's move after 2 rolls", st, tb.m.rolls)
	}
	if rep := tb.audit(tb.envs); rep.Verdict != Incomplete {
		t.Fatalf("audit: %s", rep.Summary())
	}
	f, err := CountFlights(tb.record(tb.envs), rollsSpecs)
	if err != nil {
		t.Fatal(err)
	}
	if f.Flights != 3 || f.DiceOnly != 1 {
		t.Fatalf("flights %+v, want 3 (each hello, the run) and one of dice only (the run)", f)
	}
}

// A place of a run of rolls holds its one share: a member at a later
// roll's place holding another input, two shares, another seat's share, a
// share of another roll, or a place beyond the run, is refused live and
// by the audit, blaming its signer; so is a pre-share in the first place
// that would take the sender's later place.
func TestAttackRunOfRollsMembers(t *testing.T) {
	tb := rollRunTable(t, 64, 64)
	tb.refused(1, ErrPreshare, tb.share(1), tb.preAt(1, 2))
	tb.send(1, tb.share(1))
	tb.take(tb.memberOf(0, 4, tb.shareAt(0, 1, 0)))
	beyond := tb.memberOf(1, 7, tb.shareAt(1, 3, 2)) // seat 1's next link, after the base
	for _, c := range []struct {
		what string
		seat engine.Seat
		seq  uint64
		want error
		ins  []WireInput
	}{
		{"a move at its share's place", 0, 5, ErrBadMember, []WireInput{move()}},
		{"its share and a pre-share", 0, 5, ErrBadMember, []WireInput{tb.shareAt(0, 2, 1), tb.preAt(0, 3)}},
		{"two shares", 0, 5, ErrBadMember, []WireInput{tb.shareAt(0, 2, 1), tb.shareAt(0, 3, 2)}},
		{"its share of roll a again", 0, 5, ErrChain, []WireInput{tb.shareAt(0, 1, 1)}},
		{"a link it skips to", 0, 5, ErrChain, []WireInput{tb.shareAt(0, 3, 1)}},
	} {
		t.Run(c.what, func(t *testing.T) {
			e := tb.memberOf(c.seat, c.seq, c.ins...)
			tb.refusedEnvelope(c.seat, c.want, e)
		})
	}
	// Seat 1's share of b at seat 0's place: out of turn.
	tb.refusedOutOfPlace(1, ErrOutOfTurn, tb.memberOf(1, 5, tb.shareAt(1, 2, 1)))
	tb.take(tb.memberOf(0, 5, tb.shareAt(0, 2, 1)))
	tb.take(tb.memberOf(1, 6, tb.shareAt(1, 2, 1)))
	// Beyond the run: seat 1's link 3 as a member after the base. Out of
	// sequence (it follows no message of the match as it stands now).
	tb.refusedOutOfPlace(1, ErrSequence, beyond)
}

// The run ends with the roll in which a seat reveals its chain's last
// link: that share names the seat's next chain, chosen freely, so no
// share of the other seat's for a later roll may be out before it. Seat 0
// (chains of one link) ends the run at roll a; a member for roll b is
// refused; seat 0's share of b waits for roll a and chains, as before.
func TestRunOfRollsEndsAtAChainsLastLink(t *testing.T) {
	for _, c := range []struct {
		links []int
		want  [][3]int
	}{
		{[]int{1, 64}, [][3]int{{1, 0, 1}, {0, 0, 1}}},
		{[]int{64, 1}, [][3]int{{1, 0, 1}, {0, 0, 1}}},
		{[]int{2, 64}, [][3]int{{1, 0, 1}, {0, 0, 1}, {0, 1, 2}, {1, 1, 2}}},
	} {
		tb := rollRunTable(t, c.links...)
		if got := placesOf(tb.m); !slices.Equal(got, c.want) {
			t.Fatalf("chains of %v links: places %v, want %v", c.links, got, c.want)
		}
	}
	tb := rollRunTable(t, 1, 64)
	tb.send(1, tb.share(1))
	late := tb.memberOf(1, 5, tb.shareAt(1, 2, 1))
	tb.take(tb.memberOf(0, 4, tb.shareAt(0, 1, 0)))
	tb.refusedOutOfPlace(1, ErrSequence, late)
	tb.send(0, tb.shareAt(0, 2, 1))
	tb.send(1, tb.shareAt(1, 2, 1))
	if tb.m.rolls != 2 {
		t.Fatalf("%d rolls, want 2", tb.m.rolls)
	}
}

// A seat that withholds its member for a later roll may still chain it
// once it has the messages before (any contributor may wait), and gains
// nothing by waiting: the match waits for that share, which its chain
// fixes, and takes nothing else from it (a move there is refused), so
// holding the other's later link only shows it a roll no decision comes
// before; withholding for good is a timeout, as at any roll.
func TestRunOfRollsMemberWithheld(t *testing.T) {
	tb := rollRunTable(t, 64, 64)
	tb.send(1, tb.share(1))
	tb.take(tb.memberOf(0, 4, tb.shareAt(0, 1, 0)))
	later := tb.memberOf(1, 6, tb.shareAt(1, 2, 1)) // out before seat 0's place 5
	if st, _ := tb.m.Next(); st.Seat != 0 || st.Kind != InShare || st.Roll != 1 {
		t.Fatalf("the match waits for %+v, want seat 0's share of b", st)
	}
	tb.refused(0, nil, move())
	tb.refused(0, ErrChain, tb.shareAt(0, 3, 1)) // not another link than its chain's next
	tb.send(0, tb.shareAt(0, 2, 1))              // chained after message 4
	tb.take(later)
	if st, _ := tb.m.Next(); st.Kind != InMove || tb.m.rolls != 2 {
		t.Fatalf("the match waits for %+v at roll %d", st, tb.m.rolls)
	}
	if rep := tb.audit(tb.envs); rep.Verdict != Incomplete {
		t.Fatalf("audit: %s", rep.Summary())
	}
}

// The prediction of a run of rolls is exact: in random matches of every
// game without a shared deck, wherever the match would make the rolls
// after a roll part of a run, the game asks exactly those rolls next, of
// the same seats, whatever the values drawn. (A game with a shared deck
// has no runs of rolls: rollsAfter.)
func TestRunOfRollsPredictsTheRolls(t *testing.T) {
	predicted := overPredictableGames(t, 4, playPredicted)
	t.Logf("later rolls predicted: %v", predicted)
}

// playPredicted plays one random two-player match of e's variant v and
// checks every prediction of the rolls after a roll; it returns how many
// rolls it predicted.
func playPredicted(t *testing.T, e games.Entry, v string, seed uint64) int {
	t.Helper()
	h := randomMatch(t, e, v, seed)
	m := &Match{keys: make([]crypto.PubKey, 2)}
	n := 0
	for steps := 0; h.Game.Next().Kind != engine.NeedNone && steps < 5000; steps++ {
		need := h.Game.Next()
		if need.Kind != engine.NeedRandom {
			if _, err := h.Step(); err != nil {
				t.Fatal(err)
			}
			continue
		}
		m.game = h.Game
		after := m.rollsAfter(need)
		if _, err := h.Step(); err != nil {
			t.Fatal(err)
		}
		for k, a := range after {
			got := h.Game.Next()
			if got.Kind != engine.NeedRandom || !slices.Equal(m.jointSeats(got), m.jointSeats(a)) {
				t.Fatalf("%s %s seed %d: after %s the run predicts %d more rolls; roll %d is %+v, the game asks %+v", e.Spec.Name, v, seed, need.Name, len(after), k+1, a, got)
			}
			if _, err := h.Step(); err != nil {
				t.Fatal(err)
			}
		}
		n += len(after)
	}
	return n
}

// A member signed at once after its base shows nothing of what its writer
// held after the base: the joint audit, weighing a claim that a message
// was bad against another record holding a good one there, does not take
// the claimant's member of a run as proof that it held that message and
// went on (a run of rolls puts one seat's member after another's).
func TestMemberShowsNothingAfterItsBase(t *testing.T) {
	r := &Report{Steps: []AuditStep{
		{Seq: 6, Seat: 1, OK: true},
		{Seq: 7, Seat: 1, OK: true},
		{Seq: 8, Seat: 0, OK: true, Member: true, Base: 6},
		{Seq: 9, Seat: 0, OK: true, Member: true, Base: 6},
		{Seq: 10, Seat: 1, OK: true, Member: true, Base: 6},
		{Seq: 11, Seat: 1, OK: true},
	}}
	if got, ok := signedAfter(r, 3, 1); !ok || got.Seq != 11 {
		t.Fatalf("seat 1's first message signed after holding message 9: %+v %v, want message 11 (its member 10 was signed at the base, 6)", got, ok)
	}
	if got, ok := signedAfter(r, 1, 0); ok {
		t.Fatalf("seat 0's first message signed after holding message 7: %+v, want none (its members 8 and 9 were signed at the base, 6)", got)
	}
}

package fairness

import (
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// Attacks on the pre-shares that close a group's last share (runs.go,
// "Pre-shares at a group's last share"): the member, or message, at the
// last place of a group of one roll's dice shares may close with
// pre-shares whatever the match then waits for. Each invalid one is
// refused live and by the audit, blaming its sender alone.

// rollCGroup plays the rolls test game up to the group of roll c: seat 1's
// share at the first place, seat 0's as a member at the last place (seat
// 0's links 1 and 2 went into rolls a and b, seat 1's likewise). It
// returns the member's place.
func rollCGroup(t *testing.T, links ...int) (*preTable, uint64) {
	t.Helper()
	tb := newPreTableOf(t, "standard", links)
	tb.start()
	tb.send(0, tb.share(0), tb.shareAt(0, 2, 1))
	tb.send(1, tb.share(1))
	tb.send(0, move())
	seq, _, _, _, ok := tb.m.MemberPlace(0, 0)
	if !ok || tb.m.group == nil || !tb.m.group.closedByPreshares(len(tb.m.group.places)-1) {
		t.Fatal("no group of roll c whose last place seat 0 owes")
	}
	return tb, seq
}

// Pre-shares beyond what is valid at the group's last place: more than
// maxPreshares, a link of the other seat's chain, and a link out of order.
func TestAttackLastShareMemberPresharesBeyondValid(t *testing.T) {
	tb, seq := rollCGroup(t, 64, 64)
	tb.send(1, tb.share(1))
	share := tb.shareAt(0, 3, 2)
	var tooMany []WireInput
	for k := 4; k < 4+maxPreshares+1; k++ {
		tooMany = append(tooMany, tb.preAt(0, k))
	}
	for _, c := range []struct {
		what string
		want error
		pre  []WireInput
	}{
		{"more than maxPreshares", ErrPreshare, tooMany},
		{"the other seat's link", ErrPreshare, []WireInput{tb.preAt(1, 4)}},
		{"its share's own link again", ErrPreshare, []WireInput{tb.preAt(0, 3)}},
		{"a valid pre-share then the other seat's", ErrPreshare, []WireInput{tb.preAt(0, 4), tb.preAt(1, 4)}},
	} {
		t.Logf("seat 0's last-place member with %s", c.what)
		tb.refusedAndReplayed(0, c.want, tb.memberOf(0, seq, append([]WireInput{share}, c.pre...)...))
		// Sent as a message chained at the last place, the same.
		tb.refused(0, c.want, append([]WireInput{share}, c.pre...)...)
	}
	// The honest maximum is taken, and the record audits as the match goes.
	tb.take(tb.memberOf(0, seq, share, tb.preAt(0, 4), tb.preAt(0, 5), tb.preAt(0, 6), tb.preAt(0, 7)))
	if n := tb.m.Preshared(0); n != maxPreshares {
		t.Fatalf("%d pre-shares pending, want %d", n, maxPreshares)
	}
}

// After a roll that ends the match, nothing is accepted: the last roll's
// last place closed with a pre-share is refused, blaming its sender, and
// the honest member without it ends the match clean.
func TestAttackLastShareMemberPreshareAfterTheEnd(t *testing.T) {
	tb, seq := rollCGroup(t, 64, 64)
	tb.send(1, tb.share(1))
	tb.take(tb.memberOf(0, seq, tb.shareAt(0, 3, 2)))
	tb.send(1, move())
	g := tb.m.group
	if g == nil || !g.closedByPreshares(len(g.places)-1) {
		t.Fatal("no group of roll d after seat 1's move")
	}
	first, last := g.places[0].Seat, g.places[len(g.places)-1].Seat
	lastSeq := g.seq + uint64(len(g.places))
	tb.send(first, tb.share(first))
	share := tb.share(last)
	pos := tb.m.used[last] + 1
	// The match is over when the pre-share comes: refused as such.
	tb.refusedAndReplayed(last, nil, tb.memberOf(last, lastSeq, share, tb.preAt(last, pos+1)))
	tb.refused(last, nil, share, tb.preAt(last, pos+1))
	tb.take(tb.memberOf(last, lastSeq, share))
	if rep := tb.audit(tb.envs); rep.Verdict != Clean {
		t.Fatal(rep.Summary())
	}
}

// A chain's last link as the last place's pre-share, while the other
// seat's first-place message left pre-shares pending: with a next chain it
// would void them at the sender's choice; without one it would keep the
// old chain against them. Both are refused, blaming the member's sender.
// With nothing of the other seat's pending, the link may close the member
// (its next chain is picked blind to every link the rolls after pair it
// with), and the record audits clean.
func TestAttackLastShareMemberPreshareAtAChainsEnd(t *testing.T) {
	tb, seq := rollCGroup(t, 4, 64)
	share := tb.shareAt(0, 3, 2)
	end := tb.preAt(0, 4)
	if end.Next == "" {
		t.Fatal("link 4 of a chain of 4 names no next chain")
	}
	noNext := end
	noNext.Next = ""

	clean := tb.fork()

	tb.send(1, tb.share(1), tb.preAt(1, 4))
	for _, in := range []WireInput{end, noNext} {
		tb.refusedAndReplayed(0, ErrPreshare, tb.memberOf(0, seq, share, in))
		tb.refused(0, ErrPreshare, share, in)
	}

	clean.send(1, clean.share(1))
	clean.take(clean.memberOf(0, seq, share, end))
	clean.send(1, move())
	clean.send(clean.m.group.places[0].Seat, clean.share(clean.m.group.places[0].Seat))
	if rep := clean.audit(clean.envs); rep.Verdict == Violated {
		t.Fatal(rep.Summary())
	}
}

// Only the group's last place closes with pre-shares: a member at an
// earlier place of a run of rolls, or at the last place of a run of
// several rolls, holds its share alone (ErrBadMember), blaming its sender.
func TestAttackPresharesInAMemberNotAtARollsLastPlace(t *testing.T) {
	tb := rollRunTable(t, 64, 64)
	tb.send(1, tb.share(1))
	tb.refusedAndReplayed(0, ErrBadMember, tb.memberOf(0, 4, tb.shareAt(0, 1, 0), tb.preAt(0, 2)))
	tb.take(tb.memberOf(0, 4, tb.shareAt(0, 1, 0)))
	tb.refusedAndReplayed(0, ErrBadMember, tb.memberOf(0, 5, tb.shareAt(0, 2, 1), tb.preAt(0, 3)))
	tb.take(tb.memberOf(0, 5, tb.shareAt(0, 2, 1)))
	tb.refusedAndReplayed(1, ErrBadMember, tb.memberOf(1, 6, tb.shareAt(1, 2, 1), tb.preAt(1, 3)))
}

// A seat that waits (sends its last-place share chained, having seen the
// first place's share and its pre-shares) chooses only how many of its
// own next links to send, and that steers nothing: whatever the number,
// the decision after the roll voids every pending pre-share of both
// seats, so the roll after it pairs the waiting seat's next link with a
// link of the other seat's beyond every one it had seen.
func TestAttackWaitingLastPlaceChoosesHowManyPreshares(t *testing.T) {
	for k := 0; k <= maxPreshares; k++ {
		tb, _ := rollCGroup(t, 64, 64)
		tb.send(1, tb.share(1), tb.preAt(1, 4), tb.preAt(1, 5))
		seen := 5 // seat 1's links the waiting seat 0 has seen
		ins := []WireInput{tb.shareAt(0, 3, 2)}
		for j := range k {
			ins = append(ins, tb.preAt(0, 4+j))
		}
		tb.send(0, ins...)
		tb.send(1, move())
		if tb.m.Preshared(0) != 0 || tb.m.Preshared(1) != 0 {
			t.Fatalf("k=%d: pre-shares pending after seat 1's move: %d and %d", k, tb.m.Preshared(0), tb.m.Preshared(1))
		}
		if next, _ := tb.m.preshareFrom(1); next <= seen {
			t.Fatalf("k=%d: roll d takes seat 1's link %d, which seat 0 saw before choosing", k, next)
		}
		if got, want := tb.m.used[0], 3+k; got != want {
			t.Fatalf("k=%d: seat 0 used %d links, want %d", k, got, want)
		}
		// The waiting seat cannot void the other's pending pre-shares by a
		// next chain either (TestAttackLastShareMemberPreshareAtAChainsEnd)
		// nor by a decision out of its turn.
	}
}

// In a three-seat match no message closes with pre-shares, a group's last
// place included. After three hellos the group is a run of two rolls, so
// its last member is refused as a member (checkMember) before the rule of
// two players is reached: either way it blames its sender, and the
// replays that check nothing read it without panic.
func TestAttackLastShareMemberPreshareThreeSeats(t *testing.T) {
	tb := newPreTable(t, 3, 64)
	tb.send(0, tb.hello(0))
	tb.send(1, tb.hello(1))
	tb.send(2, tb.hello(2))
	g := tb.m.group
	if g == nil {
		t.Skip("no parallel group after the hellos of three")
	}
	n := len(g.places)
	lastSeat := g.places[n-1].Seat
	lastSeq := g.seq + uint64(n)
	t.Logf("group places %v", placesOf(tb.m))
	pos := g.places[n-1].Pos
	if pos == 0 {
		pos = tb.m.used[lastSeat] + 1
	}
	e := tb.memberOf(lastSeat, lastSeq, tb.shareAt(lastSeat, pos, g.places[n-1].Roll), tb.preAt(lastSeat, pos+1))
	first := g.places[0]
	tb.send(first.Seat, tb.shareAt(first.Seat, max(first.Pos, 1), first.Roll))
	for i := 1; i < n-1; i++ {
		p := g.places[i]
		tb.take(tb.memberOf(p.Seat, g.seq+uint64(i)+1, tb.shareAt(p.Seat, max(p.Pos, 1), p.Roll)))
	}
	_, err := tb.replay().Accept(e)
	t.Logf("seat %d's last member with a pre-share: %v", lastSeat, err)
	tb.refusedAndReplayed(lastSeat, nil, e)
}

// refusedAndReplayed is refusedEnvelope, and then the record that ends
// with e is read by the replays that check nothing (CountFlights, and a
// shadow match fed one input at a time and Staged, as the TUI's replay
// does): neither may panic, whatever the member holds.
func (tb *preTable) refusedAndReplayed(seat engine.Seat, want error, e *Envelope) {
	tb.t.Helper()
	tb.refusedEnvelope(seat, want, e)
	envs := append(tb.envs[:len(tb.envs):len(tb.envs)], e)
	if _, err := CountFlights(tb.record(envs), rollsSpecs); err != nil {
		tb.t.Logf("CountFlights: %v", err)
	}
	shadow, err := NewMatch(rollsSpec, tb.h)
	if err != nil {
		tb.t.Fatal(err)
	}
	for _, x := range envs {
		body, err := DecodeBody(x.Body)
		if err != nil {
			tb.t.Fatal(err)
		}
		from := tb.h.Seat(x.From)
		for _, in := range body.Inputs {
			if _, err := shadow.Stage(from, in); err != nil {
				return // the TUI drops its shadow here
			}
		}
		shadow.Staged(x, from, body.Inputs)
	}
}

// tieScript: a roll of two coins that is rolled again while they tie
// (Sea's first-player roll in small), seat 0's decision, a last roll.
var tieScript = []engine.Need{
	{Kind: engine.NeedRandom, Seat: engine.NoSeat, Name: "first", Count: 2, Bound: 2},
	rollsScript[2],
	rollsScript[5],
}

// tieRolls is the rolls game of tieScript, whose first roll repeats on a
// tie: some of its values ask the same seats for a roll again, so its
// group's last share may close with pre-shares.
type tieRolls struct{ rolls }

func (g *tieRolls) Apply(in engine.Input) ([]engine.Event, error) {
	if g.at == 0 && in.Kind == engine.NeedRandom && len(in.Random) == 2 && in.Random[0] == in.Random[1] {
		g.vals = append(g.vals, in.Random...)
		return nil, nil
	}
	return g.rolls.Apply(in)
}

func (g *tieRolls) Clone() engine.Game {
	c := *g
	c.vals = append([]int(nil), g.vals...)
	return &c
}

// An honest last-place member is never refused (ErrBadMember would be a
// provable fault of an honest seat): over chains of every short length
// (so shares and pre-shares meet chains' ends), the first place's message
// closed with any number of pre-shares, its pre-shares those the referee
// builds (memberPreshares) and rolled again on ties, the member is taken, the match plays honestly to
// its end and the record audits clean. A referee that resumes builds the
// same member again (memberPreshares reads the base alone): checked by
// building it twice, before and after the first place's message.
func TestHonestLastShareMemberWithPresharesIsNeverRefused(t *testing.T) {
	withPre := 0
	for links0 := 2; links0 <= 6; links0++ {
		for links1 := 2; links1 <= 6; links1++ {
			for n1 := 0; n1 <= maxPreshares; n1++ {
				withPre += honestTieMember(t, "tie", links0, links1, n1)
			}
		}
	}
	if withPre == 0 {
		t.Fatal("no honest member closed with pre-shares: the property tested nothing")
	}
	t.Logf("members closed with pre-shares: %d", withPre)
}

// honestTieMember plays one match of the tie variant (see
// TestHonestLastShareMemberWithPresharesIsNeverRefused) and returns how
// many pre-shares closed seat 0's member.
func honestTieMember(t *testing.T, variant string, links0, links1, n1 int) int {
	t.Helper()
	tb := newPreTableOf(t, variant, []int{links0, links1})
	tb.send(0, tb.hello(0))
	tb.send(1, tb.hello(1))
	g := tb.m.group
	if g == nil || len(g.places) != 2 || g.places[1].Seat != 0 || !g.closedByPreshares(1) {
		t.Fatalf("after the hellos: group %v, want seat 1's then seat 0's share of the first roll", placesOf(tb.m))
	}
	seq, place := g.seq+2, g.places[1]
	ref := &Referee{m: tb.m, cfg: Config{Seat: 0}, chain: tb.dice[0]}
	share := tb.shareAt(0, tb.m.used[0]+1, place.Roll)
	pre := ref.memberPreshares(seq, place, share)
	member := tb.memberOf(0, seq, append([]WireInput{share}, pre...)...)
	// Seat 1's first-place message with up to n1 pre-shares, as many as
	// its chain's rule lets it stage.
	ins := []WireInput{tb.share(1)}
	if _, err := tb.m.Stage(1, ins[0]); err != nil {
		t.Fatal(err)
	}
	for range n1 {
		p := tb.pre(1)
		if _, err := tb.m.Stage(1, p); err != nil {
			break
		}
		ins = append(ins, p)
	}
	tb.m = tb.replay()
	tb.send(1, ins...)
	again := (&Referee{m: tb.replay(), cfg: Config{Seat: 0}, chain: tb.dice[0]}).memberPreshares(seq, place, share)
	if len(again) != len(pre) {
		t.Fatalf("links %d/%d, %d pre-shares first: the member rebuilt after the first place holds %d pre-shares, built at the base %d", links0, links1, n1, len(again), len(pre))
	}
	if _, err := tb.m.Accept(member); err != nil {
		t.Fatalf("links %d/%d, %d pre-shares first: seat 0's honest member with %d pre-shares refused: %v", links0, links1, n1, len(pre), err)
	}
	tb.envs = append(tb.envs, member)
	for steps := 0; steps < 50; steps++ {
		st, ok := tb.m.Next()
		switch {
		case !ok:
			if rep := tb.audit(tb.envs); rep.Verdict != Clean {
				t.Fatalf("links %d/%d, %d pre-shares first: %s", links0, links1, n1, rep.Summary())
			}
			return len(pre)
		case st.Kind == InShare:
			tb.send(st.Seat, tb.share(st.Seat))
		default:
			tb.send(st.Seat, move())
		}
	}
	t.Fatal("the match did not end")
	return 0
}

// A seat that waits at the last place of a roll that ties sees the first
// place's share and its pre-shares, so it knows how the roll and its
// repeats fall; the one thing it chooses, how many of its own links to
// send ahead, steers nothing: whatever the number (0 to maxPreshares,
// its chain's end among them), the first roll and every repeat take the
// same links of both seats in chain order, so the values the game gets
// are the same.
func TestAttackWaitingLastPlaceOfATieSteersNothing(t *testing.T) {
	for links0 := 2; links0 <= 5; links0++ {
		var want []int
		base := newPreTableOf(t, "tie", []int{links0, 64})
		base.send(0, base.hello(0))
		base.send(1, base.hello(1), base.share(1), base.preAt(1, 2), base.preAt(1, 3), base.preAt(1, 4), base.preAt(1, 5))
		for k := 0; k <= maxPreshares; k++ {
			tb := base.fork()
			ins := []WireInput{tb.share(0)}
			if _, err := tb.m.Stage(0, ins[0]); err != nil {
				t.Fatal(err)
			}
			for range k {
				p := tb.pre(0)
				if _, err := tb.m.Stage(0, p); err != nil {
					break // the rule of continued chains
				}
				ins = append(ins, p)
			}
			tb.m = tb.replay()
			tb.send(0, ins...)
			for st, ok := tb.m.Next(); ok && st.Kind == InShare; st, ok = tb.m.Next() {
				tb.send(st.Seat, tb.share(st.Seat))
			}
			got := tb.m.Game().(*tieRolls).vals
			if k == 0 {
				t.Logf("chain of %d links: the first roll fell %v", links0, got)
				want = got
			} else if !slices.Equal(got, want) {
				t.Fatalf("chain of %d links: with %d pre-shares the first roll fell %v, with none %v", links0, len(ins)-1, got, want)
			}
			if rep := tb.audit(tb.envs); rep.Verdict == Violated {
				t.Fatal(rep.Summary())
			}
		}
	}
}

// fork returns a copy of the table whose record and match go on apart.
func (tb *preTable) fork() *preTable {
	c := *tb
	c.envs = slices.Clone(tb.envs)
	c.m = c.replay()
	return &c
}

// tieEndRolls is tieRolls, but a first roll that falls (1, 0) is followed
// by a roll of seat 1's share alone, which ends the match.
type tieEndRolls struct{ tieRolls }

// soloEndScript is what tieEndRolls asks after a first roll of (1, 0).
var soloEndScript = []engine.Need{
	tieScript[0],
	{Kind: engine.NeedRandom, Seat: 1, Seats: []engine.Seat{1}, Name: "solo", Count: 1, Bound: 6},
}

func (g *tieEndRolls) Apply(in engine.Input) ([]engine.Event, error) {
	if g.at == 0 && in.Kind == engine.NeedRandom && slices.Equal(in.Random, []int{1, 0}) {
		g.script = soloEndScript
	}
	return g.tieRolls.Apply(in)
}

func (g *tieEndRolls) Clone() engine.Game {
	c := *g
	c.vals = append([]int(nil), g.vals...)
	return &c
}

// The match may end in the other seat's pending pre-shares: where a value
// of the roll is followed by a roll of the other seat's share alone that
// may end the match, the other seat's pre-share (sent with its share at
// the group's first place, as it may) completes that roll, and a
// pre-share the last-place member closed with comes after the end. An
// honest member must not be refused there (that would convict the honest
// seat): over many matches some first rolls fall (1, 0).
func TestHonestLastShareMemberWhereTheOtherSeatsPreshareEndsTheMatch(t *testing.T) {
	for links0 := 2; links0 <= 6; links0++ {
		for links1 := 2; links1 <= 6; links1++ {
			for n1 := 0; n1 <= maxPreshares; n1++ {
				honestTieMember(t, "tieend", links0, links1, n1)
			}
		}
	}
}

// safePreshares counts only the rolls that take the member's pre-shares:
// a roll of the other seat's share alone, which its pending pre-shares
// complete at once, costs none, and where it, or the roll after it, could
// end the match, the count stops before.
func TestSafePresharesFollowTheOtherSeatsRolls(t *testing.T) {
	a, b := rollsScript[0], rollsScript[1]
	solo := soloEndScript[1]
	for _, c := range []struct {
		what   string
		script []engine.Need
		want   int
	}{
		{"a roll again, then the other seat's roll that ends the match", []engine.Need{a, b, solo}, 1},
		{"a roll again, the other seat's roll, a roll that ends the match", []engine.Need{a, b, solo, a}, 2},
		{"a roll again, the other seat's roll, a roll and a decision", []engine.Need{a, b, solo, a, rollsScript[2]}, 4},
	} {
		if got := safePreshares(&rolls{script: c.script}, a, 4); got != c.want {
			t.Errorf("%s: %d pre-shares, want %d", c.what, got, c.want)
		}
	}
}

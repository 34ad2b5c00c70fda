package air

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// choiceGame returns a 2-player match waiting for the first card choice.
func choiceGame(t *testing.T) *referee {
	t.Helper()
	r := newReferee(t, 2, VariantStandard, 11, randomAgents(2, 11))
	r.runTo(t, func(n engine.Need) bool { return n.Kind == engine.NeedChoice })
	return r
}

func choiceOf(seat int, g *Game, cards ...CardRef) []byte {
	c := Choice{}
	for i, ref := range cards {
		c.Cards = append(c.Cards, PlaneCard{Plane: 2*seat + i, Deck: ref.Deck, Pos: ref.Pos})
	}
	return EncodeChoice(c)
}

func TestChoiceCheats(t *testing.T) {
	r := choiceGame(t)
	g := r.Game
	h0, h1 := g.Hand(0), g.Hand(1)
	good1 := choiceOf(1, g, h1[0], h1[1])
	cases := []struct {
		name   string
		choice []byte
		want   string
	}{
		{"a card not in the hand (the opponent's)", choiceOf(0, g, h0[0], h1[2]), "not in Blue's hand"},
		{"a card never dealt", choiceOf(0, g, h0[0], CardRef{Deck: 1, Pos: 59}), "not in Blue's hand"},
		{"a card of a deck that does not exist", choiceOf(0, g, h0[0], CardRef{Deck: 2, Pos: 0}), "not in Blue's hand"},
		{"the same card twice", choiceOf(0, g, h0[0], h0[0]), "chosen twice"},
		{"one card for two planes", EncodeChoice(Choice{Cards: []PlaneCard{{Plane: 0, Deck: 1, Pos: h0[0].Pos}}}), "want one for each"},
		{"two cards for one plane", EncodeChoice(Choice{Cards: []PlaneCard{{Plane: 0, Deck: 1, Pos: h0[0].Pos}, {Plane: 0, Deck: 1, Pos: h0[1].Pos}}}), "two cards for"},
		{"a card for an opposing plane", EncodeChoice(Choice{Cards: []PlaneCard{{Plane: 0, Deck: 1, Pos: h0[0].Pos}, {Plane: 2, Deck: 1, Pos: h0[1].Pos}}}), "not one of Blue's"},
		{"garbage", []byte("{not json"), "undecodable"},
		{"unknown field", []byte(`{"cards":[],"peek":true}`), "undecodable"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := g.Hash()
			_, err := g.Apply(engine.Input{Kind: engine.NeedChoice, Seat: engine.NoSeat, Choices: [][]byte{c.choice, good1}})
			var f *engine.Fault
			if !errors.As(err, &f) || f.Seat != 0 || !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("got %v, want an illegal Fault naming seat 0", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not say %q", err, c.want)
			}
			if g.Hash() != h {
				t.Fatal("a rejected choice changed the state")
			}
		})
	}
	t.Run("blame the second seat", func(t *testing.T) {
		_, err := g.Apply(engine.Input{Kind: engine.NeedChoice, Seat: engine.NoSeat, Choices: [][]byte{choiceOf(0, g, h0[0], h0[1]), choiceOf(1, g, h1[0], h0[2])}})
		if engine.Blame(err, engine.NoSeat) != 1 {
			t.Fatalf("blamed %v for %v", engine.Blame(err, engine.NoSeat), err)
		}
	})
	t.Run("wrong number of choices", func(t *testing.T) {
		if _, err := g.Apply(engine.Input{Kind: engine.NeedChoice, Seat: engine.NoSeat, Choices: [][]byte{good1}}); !errors.Is(err, engine.ErrIllegal) {
			t.Fatalf("got %v", err)
		}
	})
}

// TestOpenCheats: the choice is committed before anything
// is opened; the engine then only accepts openings of exactly the cards
// chosen, so a seat that saw the others' cards cannot swap its own (the
// referee's choice commitment stops a changed choice; this stops a changed
// card).
func TestOpenCheats(t *testing.T) {
	r := choiceGame(t)
	if _, err := r.Step(); err != nil { // the choice
		t.Fatal(err)
	}
	g := r.Game
	n := g.Next()
	if n.Kind != engine.NeedOpen || n.Seat != 0 || len(n.Open) != 2 {
		t.Fatalf("want seat 0 to open 2 cards, got %+v", n)
	}
	honest, err := r.Input()
	if err != nil {
		t.Fatal(err)
	}
	otherInHand := g.Hand(0)[0].Slot()
	alter := func(f func(o []engine.Opened) []engine.Opened) engine.Input {
		in := honest
		in.Opened = f(append([]engine.Opened(nil), honest.Opened...))
		return in
	}
	cases := []struct {
		name string
		in   engine.Input
	}{
		{"another card of the hand instead of the chosen one", alter(func(o []engine.Opened) []engine.Opened {
			o[0] = engine.Opened{Slot: otherInHand, Value: []byte{1}}
			return o
		})},
		{"one card missing", alter(func(o []engine.Opened) []engine.Opened { return o[:1] })},
		{"number 0", alter(func(o []engine.Opened) []engine.Opened { o[0].Value = []byte{0}; return o })},
		{"number 61", alter(func(o []engine.Opened) []engine.Opened { o[0].Value = []byte{61}; return o })},
		{"two bytes", alter(func(o []engine.Opened) []engine.Opened { o[0].Value = []byte{1, 2}; return o })},
		{"the same number twice", alter(func(o []engine.Opened) []engine.Opened { o[1].Value = o[0].Value; return o })},
		{"from the wrong seat", func() engine.Input { in := honest; in.Seat = 1; return in }()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := g.Hash()
			if _, err := g.Apply(c.in); !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("got %v, want illegal", err)
			}
			if g.Hash() != h {
				t.Fatal("a rejected opening changed the state")
			}
		})
	}
	t.Run("a number already played", func(t *testing.T) {
		if _, err := r.Apply(honest); err != nil {
			t.Fatal(err)
		}
		in, err := r.Input()
		if err != nil {
			t.Fatal(err)
		}
		in.Opened[0].Value = honest.Opened[0].Value
		if _, err := g.Apply(in); !errors.Is(err, engine.ErrIllegal) || !strings.Contains(err.Error(), "not among the unrevealed") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestDealAndShuffleChecks(t *testing.T) {
	g, _ := New(engine.Setup{Seats: 2})
	n := g.Next()
	if n.Kind != engine.NeedShuffle || n.Name != "nav" || n.Size != 60 || len(n.Seats) != 2 || len(n.Open) != 0 {
		t.Fatalf("first need %+v, want the 60-card shuffle by both seats", n)
	}
	mustApply(t, g, engine.Input{Kind: engine.NeedShuffle, Seat: engine.NoSeat})
	n = g.Next()
	if n.Kind != engine.NeedDeal || n.Seat != 0 || n.Count != 7 || n.Name != "nav" {
		t.Fatalf("want seven cards to seat 0, got %+v", n)
	}
	for _, bad := range []engine.Input{
		{Kind: engine.NeedDeal, Seat: 0, Cards: []int{1, 2, 3, 4, 5, 6, 7}},
		{Kind: engine.NeedDeal, Seat: 0, Cards: []int{0, 1, 2}},
		{Kind: engine.NeedDeal, Seat: 1, Cards: []int{0, 1, 2, 3, 4, 5, 6}},
		{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{1}},
	} {
		h := g.Hash()
		if _, err := g.Apply(bad); !errors.Is(err, engine.ErrIllegal) || g.Hash() != h {
			t.Fatalf("bad deal %+v: %v", bad, err)
		}
	}
	mustApply(t, g, engine.Input{Kind: engine.NeedDeal, Seat: 0, Cards: []int{0, 1, 2, 3, 4, 5, 6}})
	if next, ok := g.NextCard(); !ok || next != (CardRef{Deck: 1, Pos: 7}) {
		t.Fatalf("next card %v", next)
	}
	n = g.Next()
	if n.Seat != 1 || n.Count != 7 {
		t.Fatalf("want seven cards to seat 1, got %+v", n)
	}
	mustApply(t, g, engine.Input{Kind: engine.NeedDeal, Seat: 1, Cards: []int{7, 8, 9, 10, 11, 12, 13}})
	if n := g.Next(); n.Kind != engine.NeedChoice || n.Name != "choice/1" || len(n.Seats) != 2 {
		t.Fatalf("want the round-1 choice, got %+v", n)
	}
}

func TestReshuffleDiscardPile(t *testing.T) {
	r := newReferee(t, 2, VariantStandard, 21, randomAgents(2, 21))
	r.runTo(t, func(n engine.Need) bool { return n.Kind == engine.NeedShuffle && n.Name == "nav/2" })
	n := r.Game.Next()
	discard := r.Game.DiscardPile()
	if n.Size != len(discard) || len(n.Open) != len(discard) || len(n.Seats) != 2 {
		t.Fatalf("reshuffle need %+v for a discard pile of %d", n, len(discard))
	}
	if name, left := r.Game.DrawPile(); name != "nav" || left != 0 {
		t.Fatalf("draw pile %s has %d left", name, left)
	}
	for i, p := range discard {
		if n.Open[i] != p.Card.Slot() {
			t.Fatalf("reshuffle slot %d is %s, want %s", i, n.Open[i], p.Card.Slot())
		}
	}
	if _, err := r.Step(); err != nil {
		t.Fatal(err)
	}
	if len(r.Game.DiscardPile()) != 0 {
		t.Fatal("discard pile not taken into the new deck")
	}
	if d := r.Game.Next(); d.Kind != engine.NeedDeal || d.Name != "nav/2" {
		t.Fatalf("want a deal from nav/2, got %+v", d)
	}
	// A card of nav/2 must open to a number of the old discard pile.
	inNew := map[int]bool{}
	for _, p := range discard {
		inNew[p.Number] = true
	}
	var outside int
	for v := 1; v <= DeckSize; v++ {
		if !inNew[v] {
			outside = v
			break
		}
	}
	r.runTo(t, func(n engine.Need) bool {
		if n.Kind != engine.NeedOpen {
			return false
		}
		for _, s := range n.Open {
			if s.Name == "nav/2" {
				return true
			}
		}
		return false
	})
	in, err := r.Input()
	if err != nil {
		t.Fatal(err)
	}
	for i := range in.Opened {
		if in.Opened[i].Slot.Name == "nav/2" {
			in.Opened[i].Value = []byte{byte(outside)}
		}
	}
	if _, err := r.Game.Apply(in); !errors.Is(err, engine.ErrIllegal) {
		t.Fatalf("a card outside the reshuffled pile was accepted: %v", err)
	}
}

func TestShotOutOfConeRejected(t *testing.T) {
	g := turnGame(t, 2, VariantStandard, 1, findCard(t, Standard, Straight, 1))
	place(g, 1, Pos{4, 1}, North)
	place(g, 0, Pos{0, 0}, North)
	place(g, 2, Pos{5, 3}, South) // curved: missile only
	place(g, 3, Pos{4, 0}, South) // behind
	cases := []struct {
		name string
		m    Move
		want string
	}{
		{"behind", FireMove(Missile, 3), "out of the cone"},
		{"cannon on a curve", FireMove(Cannon, 2), "not on a cannon line"},
		{"unknown weapon", Move{Action: ActFire, Weapon: "laser", Target: intp(2)}, "unknown weapon"},
		{"no target", Move{Action: ActFire, Weapon: "missile"}, "no target"},
		{"no such plane", FireMove(Missile, 9), "no plane 9"},
		{"unknown action", Move{Action: "teleport"}, "unknown action"},
		{"end before moving", PlainMove(ActEnd), "must move"},
		{"extra field", Move{Action: ActMove, Target: intp(2)}, "no target may be given"},
		{"bonus out of turn", BonusMove(true), "+1 decision"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := g.Hash()
			_, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: c.m.Encode()})
			if !errors.Is(err, engine.ErrIllegal) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an illegal move saying %q", err, c.want)
			}
			if g.Hash() != h {
				t.Fatal("state changed")
			}
		})
	}
	t.Run("the missile shot is legal", func(t *testing.T) {
		doMove(t, g, FireMove(Missile, 2))
	})
	t.Run("not the mover's seat", func(t *testing.T) {
		g := turnGame(t, 2, VariantStandard, 1, 1)
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove, Seat: 1, Move: PlainMove(ActMove).Encode()}); !errors.Is(err, engine.ErrIllegal) {
			t.Fatalf("got %v", err)
		}
	})
}

func TestBadRolls(t *testing.T) {
	g := turnGame(t, 2, VariantStandard, 1, findCard(t, Standard, Straight, 2))
	doMove(t, g, PlainMove(ActMove))
	for _, in := range []engine.Input{
		{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{1}},
		{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{1, 6}},
		{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{-1, 0}},
		{Kind: engine.NeedRandom, Seat: 0, Random: []int{1, 1}},
		{Kind: engine.NeedMove, Seat: 0, Move: PlainMove(ActEnd).Encode()},
	} {
		h := g.Hash()
		if _, err := g.Apply(in); !errors.Is(err, engine.ErrIllegal) || g.Hash() != h {
			t.Fatalf("%+v: %v", in, err)
		}
	}
}

func TestWinning(t *testing.T) {
	down := func(g *Game, ids ...int) {
		for _, id := range ids {
			var ev events
			g.damage(&ev, id, blackRoll(t, 4, 12))
		}
		var ev events
		g.checkOutcome(&ev)
	}
	t.Run("2 players: both opposing planes", func(t *testing.T) {
		g := turnGame(t, 2, VariantStandard, 0, 1)
		down(g, 2)
		if g.Outcome().Done {
			t.Fatal("over with one plane down")
		}
		down(g, 3)
		if o := g.Outcome(); !o.Done || len(o.Winners) != 1 || o.Winners[0] != 0 {
			t.Fatalf("outcome %+v", o)
		}
		if g.Next().Kind != engine.NeedNone {
			t.Fatal("still needs input")
		}
		if _, err := g.Apply(engine.Input{Kind: engine.NeedMove}); !errors.Is(err, engine.ErrIllegal) {
			t.Fatalf("input after the end: %v", err)
		}
	})
	t.Run("team: the first squadron lost", func(t *testing.T) {
		g := turnGame(t, 4, VariantTeam, 0, 1)
		down(g, 6, 4) // Tiger F-35, Eagle F-35
		if g.Outcome().Done {
			t.Fatal("over without a squadron eliminated")
		}
		down(g, 7) // Tiger gone: Fire and Eagle win
		if o := g.Outcome(); !o.Done || len(o.Winners) != 2 || o.Winners[0] != 1 || o.Winners[1] != 2 {
			t.Fatalf("outcome %+v", o)
		}
	})
	t.Run("free-for-all: last squadron flying", func(t *testing.T) {
		g := turnGame(t, 3, VariantFreeForAll, 0, 1)
		down(g, 2, 3)
		if g.Outcome().Done {
			t.Fatal("over with two squadrons flying")
		}
		if len(g.Hand(1)) != 0 {
			t.Fatal("an eliminated squadron keeps its hand")
		}
		down(g, 5, 4)
		if o := g.Outcome(); !o.Done || len(o.Winners) != 1 || o.Winners[0] != 0 {
			t.Fatalf("outcome %+v", o)
		}
	})
	t.Run("draw when the last planes collide", func(t *testing.T) {
		g := turnGame(t, 2, VariantMaxDamage, 1, findCard(t, Standard, Straight, 1))
		down(g, 0, 2)
		place(g, 1, Pos{4, 2}, North)
		place(g, 3, Pos{4, 3}, South)
		flyTotal(t, g, 1)
		doRoll(t, g, append(blackRoll(t, 4, 12), blackRoll(t, 4, 12)...))
		if o := g.Outcome(); !o.Done || !o.Draw || len(o.Winners) != 0 {
			t.Fatalf("outcome %+v", o)
		}
	})
	t.Run("round limit", func(t *testing.T) {
		g := turnGame(t, 2, VariantStandard, 1, findCard(t, Standard, Straight, 1))
		g.round = MaxRounds
		place(g, 1, Pos{0, 5}, West)
		flyTotal(t, g, 1)
		if g.Next().Kind == engine.NeedMove {
			doMove(t, g, PlainMove(ActEnd))
		}
		if o := g.Outcome(); !o.Done || !o.Draw {
			t.Fatalf("outcome %+v after round %d", o, MaxRounds)
		}
	})
}

func TestDownedPlaneLosesItsTurn(t *testing.T) {
	g := turnGame(t, 2, VariantStandard, 1, 1)
	g.order = append(g.order, Played{Plane: 2, Card: CardRef{Deck: 1, Pos: 1}, Number: 2}, Played{Plane: 3, Card: CardRef{Deck: 1, Pos: 2}, Number: 3})
	var ev events
	g.damage(&ev, 2, blackRoll(t, 4, 12))
	place(g, 1, Pos{0, 5}, West)
	flyTotal(t, g, 1)
	if g.Next().Kind == engine.NeedMove && g.ts.plane == 1 {
		doMove(t, g, PlainMove(ActEnd))
	}
	if act, ok := g.Active(); !ok || act.Plane != 3 {
		t.Fatalf("active %+v, want the Fire F-22 (the F-35 is down)", act)
	}
	found := false
	for _, p := range g.DiscardPile() {
		found = found || p.Plane == 2
	}
	if !found {
		t.Fatal("the downed plane's card was not discarded")
	}
}

// TestIllegalInputsChangeNothing throws random inputs at random states of
// random games: every rejected input leaves the hash as it was.
func TestIllegalInputsChangeNothing(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 5
	}
	junk := rand.New(rand.NewPCG(1, 2))
	for i := range games {
		r := newReferee(t, 2+i%3, VariantStandard, uint64(100+i), randomAgents(2+i%3, uint64(100+i)))
		for r.Game.Next().Kind != engine.NeedNone && r.Steps() < 5000 {
			for range 3 {
				in := randomInput(junk, r.Game)
				h := r.Game.Hash()
				c := r.Game.clone()
				if _, err := c.Apply(in); err != nil && c.Hash() != h {
					t.Fatalf("rejected %+v changed the hash: %v", in, err)
				}
			}
			if _, err := r.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func randomInput(r *rand.Rand, g *Game) engine.Input {
	n := g.Next()
	in := engine.Input{Kind: n.Kind, Seat: n.Seat}
	if r.IntN(10) == 0 {
		in.Kind = engine.NeedKind(r.IntN(8))
	}
	switch r.IntN(6) {
	case 0:
		in.Move = []byte(`{"action":"` + []string{"move", "fire", "end", "wingman", "disrupt", "bonus"}[r.IntN(6)] + `"}`)
	case 1:
		in.Move = FireMove(Weapon(r.IntN(2)), r.IntN(10)-1).Encode()
	case 2:
		in.Random = []int{r.IntN(8) - 1, r.IntN(7)}
	case 3:
		in.Cards = []int{r.IntN(70)}
	case 4:
		in.Opened = []engine.Opened{{Slot: engine.Slot{Owner: engine.NoSeat, Name: "nav", Index: r.IntN(60)}, Value: []byte{byte(r.IntN(70))}}}
	case 5:
		in.Choices = [][]byte{EncodeChoice(Choice{Cards: []PlaneCard{{Plane: r.IntN(8), Deck: 1, Pos: r.IntN(60)}}})}
	}
	return in
}

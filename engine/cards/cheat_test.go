package cards

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// Cheats a dishonest peer could try, each rejected by Apply with the state
// unchanged. The referee checks every opening against its commitment, so
// a cheater can only commit bad leaves, open the wrong leaf, or send moves
// and roll values the rules do not allow.

// newRigged is newFixture with seat 'cheat' committing tweaked leaves.
func newRigged(t *testing.T, variant string, first, cheat engine.Seat, name string, tweak func(leaves [][]byte)) *table {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	tb := newTable(t, variant, 9, NewRandomBot(r), NewRandomBot(r))
	honest := fixedCommit(tb)
	tb.commit = func(n engine.Need) [][]byte {
		leaves := honest(n)
		if n.Seat == cheat && n.Name == name {
			tweak(leaves)
		}
		return leaves
	}
	tb.Script = []int{int(first), 0, 0}
	tb.settle(t)
	return tb
}

// wantFault checks that err is a rules error blaming seat and that the state
// is unchanged.
func wantFault(t *testing.T, tb *table, before engine.Digest, err error, from, blame engine.Seat) {
	t.Helper()
	wantIllegal(t, tb, before, err)
	if got := engine.Blame(err, from); got != blame {
		t.Fatalf("error %v blames %s, want %s", err, got, blame)
	}
	t.Logf("rejected: %v", err)
}

// findLeaf returns the index of the first leaf of seat's vector holding v.
func (tb *table) findLeaf(s engine.Seat, name string, v byte, skip int) int {
	for i := 0; ; i++ {
		b, ok := tb.Secrets(s)[engine.Slot{Owner: s, Name: name, Index: i}]
		if !ok {
			return -1
		}
		if b[0] == v {
			if skip == 0 {
				return i
			}
			skip--
		}
	}
}

func TestCheatStackedDeck(t *testing.T) {
	stack := func(leaves [][]byte) { leaves[10] = EncodeCard(Red4) } // a one-peg card becomes a second four-peg card
	t.Run("caught when the extra card is played", func(t *testing.T) {
		tb := newRigged(t, VariantStandard, 0, 0, "deck/1", stack)
		tb.reveal(t, 1, Carrier, 0)
		p := &tb.Game.players[0]
		for _, c := range p.hand {
			p.decks[0].drawn[c.Leaf] = false
		}
		a := CardRef{Deck: 1, Leaf: tb.findLeaf(0, "deck/1", byte(Red4), 0)}
		b := CardRef{Deck: 1, Leaf: tb.findLeaf(0, "deck/1", byte(Red4), 1)}
		p.hand = []CardRef{a, b}
		p.decks[0].drawn[a.Leaf], p.decks[0].drawn[b.Leaf] = true, true
		tb.mustPlay(t, 0, Move{Action: Attack, Card: a, Face: Red4, Ship: Carrier})
		tb.settle(t)
		tb.setTurn(0)
		before := tb.Game.Hash()
		_, err := tb.playMove(0, Move{Action: Attack, Card: b, Face: Red4, Ship: Carrier})
		wantFault(t, tb, before, err, 0, 0)
	})
	t.Run("caught at the final reveal", func(t *testing.T) {
		tb := newRigged(t, VariantStandard, 1, 0, "deck/1", stack)
		for pos, k := range Ships {
			tb.sinkShip(t, 0, k, pos)
		}
		tb.Game.players[0].ships[PTBoat].sunk = false
		tb.peg(t, 1, PTBoat, Red1, false)
		h := tb.setHand(t, 1, Red1, White, White, White, White)
		tb.mustPlay(t, 1, Move{Action: Attack, Card: h[0], Face: Red1, Ship: PTBoat})
		n := tb.Game.Next()
		if n.Kind != engine.NeedOpen || n.Seat != 0 {
			t.Fatalf("need %+v, want seat 0's final reveal", n)
		}
		in, _ := tb.Input()
		before := tb.Game.Hash()
		_, err := tb.Game.Apply(in)
		wantFault(t, tb, before, err, 0, 0)
	})
	t.Run("power card in a beginner deck", func(t *testing.T) {
		tb := newRigged(t, VariantBeginner, 0, 0, "deck/1", func(leaves [][]byte) { leaves[0] = EncodeCard(DiscardPlay) })
		hand := tb.Game.Hand(0)
		before := tb.Game.Hash()
		_, err := tb.playMove(0, Move{Action: PlayTwo, Card: hand[0], Face: DiscardPlay})
		wantFault(t, tb, before, err, 0, 0)
	})
	t.Run("reshuffled deck that is not the discard pile", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		tb.emptyPile(t, 0)
		hand := tb.Game.Hand(0)
		tb.tapTo(t, 0, hand[0], White, 0, NoShip)
		honest := tb.commit
		tb.commit = func(n engine.Need) [][]byte {
			leaves := honest(n)
			if n.Name == "deck/2" {
				for i := range leaves {
					leaves[i] = EncodeCard(Red4) // all four-peg cards
				}
			}
			return leaves
		}
		tb.reveal(t, 1, Carrier, 5)
		last := func() CardRef {
			tb.settle(t)
			tb.setTurn(0)
			h := tb.Game.Hand(0)
			c := h[len(h)-1]
			if c.Deck != 2 {
				t.Fatalf("last hand card %v not from deck/2", c)
			}
			return c
		}
		// The discard pile held one four-peg card: the first passes, the second is caught.
		tb.mustPlay(t, 0, Move{Action: Attack, Card: last(), Face: Red4, Ship: Carrier})
		c := last()
		before := tb.Game.Hash()
		_, err := tb.playMove(0, Move{Action: Attack, Card: c, Face: Red4, Ship: Carrier})
		wantFault(t, tb, before, err, 0, 0)
	})
}

func TestCheatAlteredGrid(t *testing.T) {
	twoCarriers := func(leaves [][]byte) { leaves[4] = EncodeCoord(Carrier) } // no PT Boat, two carriers
	t.Run("caught when the extra ship is flipped", func(t *testing.T) {
		tb := newRigged(t, VariantStandard, 0, 1, CoordsName, twoCarriers)
		hand := tb.setHand(t, 0, White, White, White, White, White)
		tb.tapTo(t, 0, hand[0], White, 0, Carrier)
		tb.settle(t)
		tb.setTurn(0)
		tb.Script = append(tb.Script, 3) // free leaves are 1..11; index 3 is leaf 4, the second carrier
		tb.mustPlay(t, 0, Move{Action: Tap, Card: hand[1], Face: White, Pos: 1})
		if _, err := tb.Step(); err != nil { // the flip roll
			t.Fatal(err)
		}
		in, _ := tb.Input()
		before := tb.Game.Hash()
		_, err := tb.Game.Apply(in)
		wantFault(t, tb, before, err, 1, 1)
	})
	t.Run("caught at the final reveal", func(t *testing.T) {
		tb := newRigged(t, VariantStandard, 0, 1, CoordsName, func(leaves [][]byte) { leaves[4] = EncodeCoord(NoShip) })
		for pos, k := range []Ship{Carrier, Battleship, Destroyer, Submarine} {
			tb.sinkShip(t, 1, k, pos)
		}
		// Seat 1 "has" a PT Boat it never laid: mark it sunk so play ends.
		tb.Game.players[1].ships[PTBoat].sunk = true
		tb.Game.players[1].ships[PTBoat].revealed = true
		hand := tb.setHand(t, 0, White, White, White, White, White)
		tb.tapTo(t, 0, hand[0], White, 6, NoShip) // settles the board: seat 0 has won
		if _, err := tb.Step(); err != nil {      // seat 0 reveals honestly
			t.Fatal(err)
		}
		in, _ := tb.Input()
		before := tb.Game.Hash()
		_, err := tb.Game.Apply(in)
		wantFault(t, tb, before, err, 1, 1)
	})
	t.Run("not a coordinate card", func(t *testing.T) {
		tb := newRigged(t, VariantStandard, 0, 1, CoordsName, func(leaves [][]byte) {
			for i := range leaves {
				leaves[i] = []byte{9}
			}
		})
		hand := tb.Game.Hand(0)
		tb.mustPlay(t, 0, Move{Action: Tap, Card: hand[0], Face: White, Pos: 0})
		if _, err := tb.Step(); err != nil {
			t.Fatal(err)
		}
		in, _ := tb.Input()
		before := tb.Game.Hash()
		_, err := tb.Game.Apply(in)
		wantFault(t, tb, before, err, 1, 1)
	})
}

func TestCheatFlipsAnotherLeaf(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	hand := tb.Game.Hand(0)
	tb.flipTo(1, Carrier)
	tb.mustPlay(t, 0, Move{Action: Tap, Card: hand[0], Face: White, Pos: 0})
	if _, err := tb.Step(); err != nil {
		t.Fatal(err)
	}
	n := tb.Game.Next()
	if n.Kind != engine.NeedOpen || len(n.Open) != 1 || n.Open[0] != (engine.Slot{Owner: 1, Name: CoordsName, Index: 0}) {
		t.Fatalf("need %+v, want seat 1 to open exactly coords[0]", n)
	}
	slot := func(i int) engine.Opened {
		s := engine.Slot{Owner: 1, Name: CoordsName, Index: i}
		return engine.Opened{Slot: s, Value: tb.leaf(s)}
	}
	for _, tc := range []struct {
		name string
		in   engine.Input
	}{
		{"a miss instead of the picked ship", engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{slot(7)}}},
		{"the picked leaf and another", engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{slot(0), slot(7)}}},
		{"nothing", engine.Input{Kind: engine.NeedOpen, Seat: 1}},
		{"the picked leaf twice", engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{slot(0), slot(0)}}},
		{"from the wrong seat", engine.Input{Kind: engine.NeedOpen, Seat: 0, Opened: []engine.Opened{slot(0)}}},
		{"a move instead", engine.Input{Kind: engine.NeedMove, Seat: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tb.Game.Hash()
			_, err := tb.Game.Apply(tc.in)
			wantIllegal(t, tb, before, err)
		})
	}
	if _, err := tb.Game.Apply(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{slot(0)}}); err != nil {
		t.Fatalf("honest flip rejected: %v", err)
	}
}

func TestCheatCardNotInHand(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	hand := tb.setHand(t, 0, White, Red1, White, White, White)
	tb.tapTo(t, 0, hand[0], White, 0, NoShip)
	tb.settle(t)
	tb.setTurn(0)
	pile := tb.leafOf(t, 0, Red4)
	for _, tc := range []struct {
		name string
		m    Move
	}{
		{"a card still in the draw pile", Move{Action: Tap, Card: pile, Face: Red4, Pos: 1}},
		{"a card already played", Move{Action: Tap, Card: hand[0], Face: White, Pos: 1}},
		{"a deck that does not exist", Move{Action: Tap, Card: CardRef{Deck: 2, Leaf: 0}, Face: White, Pos: 1}},
		{"a leaf that does not exist", Move{Action: Tap, Card: CardRef{Deck: 1, Leaf: 26}, Face: White, Pos: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tb.Game.Hash()
			_, err := tb.playMove(0, tc.m)
			if err == nil {
				t.Fatal("accepted")
			}
			// MustOpen may already refuse; Apply must refuse too.
			slot := cardSlot(0, tc.m.Card)
			_, err = tb.Game.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: tc.m.Encode(),
				Opened: []engine.Opened{{Slot: slot, Value: tb.leaf(slot)}}})
			wantIllegal(t, tb, before, err)
		})
	}
	t.Run("an opponent's card", func(t *testing.T) {
		before := tb.Game.Hash()
		h1 := tb.Game.Hand(1)
		slot := cardSlot(1, h1[0])
		_, err := tb.Game.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: Move{Action: Tap, Card: h1[0], Face: White, Pos: 1}.Encode(),
			Opened: []engine.Opened{{Slot: slot, Value: tb.leaf(slot)}}})
		wantIllegal(t, tb, before, err)
	})
	t.Run("a claimed face the card does not show", func(t *testing.T) {
		before := tb.Game.Hash()
		_, err := tb.playMove(0, Move{Action: Tap, Card: hand[1], Face: Red4, Pos: 1})
		wantIllegal(t, tb, before, err)
	})
	t.Run("no opening", func(t *testing.T) {
		before := tb.Game.Hash()
		_, err := tb.Game.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: Move{Action: Tap, Card: hand[1], Face: Red1, Pos: 1}.Encode()})
		wantIllegal(t, tb, before, err)
	})
	t.Run("a wrong seat", func(t *testing.T) {
		before := tb.Game.Hash()
		_, err := tb.playMove(1, Move{Action: Tap, Card: tb.Game.Hand(1)[0], Face: White, Pos: 1})
		wantIllegal(t, tb, before, err)
	})
}

// TestCheatRedPegOnSubmarine: a red peg card on the Submarine never counts.
// Claiming it is a white peg fails on the opened face; played honestly it is
// discarded, and a peer whose state counted it would show another hash.
func TestCheatRedPegOnSubmarine(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 1, Submarine, 0)
	hand := tb.setHand(t, 0, Red2, White, White, White, White)
	before := tb.Game.Hash()
	_, err := tb.playMove(0, Move{Action: Attack, Card: hand[0], Face: White, Ship: Submarine})
	wantIllegal(t, tb, before, err)

	cheater := tb.Game.clone()
	tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[0], Face: Red2, Ship: Submarine})
	if d := tb.Game.Damage(1, Submarine); d != 0 {
		t.Fatalf("red pegs did %d damage to the submarine", d)
	}
	// What a cheating engine would hold: the red card under the Submarine.
	cheater.players[0].hand = removeRef(cheater.players[0].hand, hand[0])
	cheater.players[1].ships[Submarine].pegs = []Face{Red2}
	if cheater.Damage(1, Submarine) != 2 || cheater.Hash() == tb.Game.Hash() {
		t.Fatal("a state counting the red peg is indistinguishable by hash")
	}
}

func TestCheatRepairWithoutPower(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 0, Carrier, 0)
	tb.peg(t, 1, Carrier, Red2, false)
	hand := tb.setHand(t, 0, Red1, White, White, White, White)
	for _, tc := range []struct {
		name string
		m    Move
	}{
		{"PT Boat repair without a PT Boat", Move{Action: PTRepair, Ship: Carrier, Peg: 0}},
		{"repair with a red card", Move{Action: Repair, Card: hand[0], Face: Red1, Ship: Carrier, Peg: 0}},
		{"repair with a red card claimed as a repair card", Move{Action: Repair, Card: hand[0], Face: RepairDraw, Ship: Carrier, Peg: 0}},
		{"skip when no PT Boat decision is due", Move{Action: Skip}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tb.Game.Hash()
			_, err := tb.playMove(0, tc.m)
			wantIllegal(t, tb, before, err)
		})
	}
	if len(tb.ship(0, Carrier).Pegs) != 1 {
		t.Fatal("a rejected repair removed a peg")
	}
}

// TestCheatWrongReloadSize: the engine alone decides how many cards a reload
// draws (the roll's bound); a roll of another size or range is rejected.
func TestCheatWrongReloadSize(t *testing.T) {
	for _, tc := range []struct {
		name    string
		carrier bool
		k       int
	}{{"reload to five", false, 1}, {"reload to seven with the carrier", true, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newFixture(t, VariantStandard, 0)
			if tc.carrier {
				tb.reveal(t, 0, Carrier, 0)
			}
			hand := tb.Game.Hand(0)
			tb.tapTo(t, 0, hand[0], White, 0, NoShip)
			n := tb.Game.Next()
			if n.Kind != engine.NeedRandom || n.Count != 1 || n.Bound != drawBound(21, tc.k) {
				t.Fatalf("reload need %+v, want one roll with bound %d (%d cards)", n, drawBound(21, tc.k), tc.k)
			}
			before := tb.Game.Hash()
			for _, bad := range []engine.Input{
				{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{0, 0}},
				{Kind: engine.NeedRandom, Seat: engine.NoSeat},
				{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{n.Bound}},
				{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{-1}},
				{Kind: engine.NeedRandom, Seat: 0, Random: []int{0}},
			} {
				_, err := tb.Game.Apply(bad)
				wantIllegal(t, tb, before, err)
			}
			tb.settle(t)
			if got := len(tb.Game.Hand(0)); got != 4+tc.k {
				t.Fatalf("hand %d after the reload, want %d", got, 4+tc.k)
			}
		})
	}
	t.Run("reshuffle commitment of the wrong size", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		tb.emptyPile(t, 0)
		tb.tapTo(t, 0, tb.Game.Hand(0)[0], White, 0, NoShip)
		n := tb.Game.Next()
		before := tb.Game.Hash()
		for _, cm := range []engine.Commitment{
			{Owner: 0, Name: n.Name, Size: n.Size + 1},
			{Owner: 0, Name: n.Name, Size: n.Size - 1},
			{Owner: 0, Name: "deck/3", Size: n.Size},
			{Owner: 1, Name: n.Name, Size: n.Size},
		} {
			_, err := tb.Game.Apply(engine.Input{Kind: engine.NeedCommit, Seat: 0, Commitment: &cm})
			wantIllegal(t, tb, before, err)
		}
		_, err := tb.Game.Apply(engine.Input{Kind: engine.NeedCommit, Seat: 0})
		wantIllegal(t, tb, before, err)
	})
}

func TestIllegalErrorsWrapErrIllegal(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	_, err := tb.Game.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: []byte(`{"action":"tap","bogus":1}`)})
	if !errors.Is(err, engine.ErrIllegal) {
		t.Fatalf("error %v does not wrap ErrIllegal", err)
	}
}

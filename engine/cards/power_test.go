package cards

import (
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// TestRulebookShieldExample: "You place a shield on your Destroyer, which has
// one peg of damage. Your opponent must play two pegs to destroy the shield
// before playing any more pegs on your ship."
func TestRulebookShieldExample(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 0, Destroyer, 5)
	tb.peg(t, 1, Destroyer, Red1, false)
	h0 := tb.setHand(t, 0, ShieldCard, White, White, White, White)
	tb.mustPlay(t, 0, Move{Action: PlaceShield, Card: h0[0], Face: ShieldCard, Ship: Destroyer})
	tb.settle(t)
	if sv := tb.ship(0, Destroyer); !sv.Shield || sv.Damage != 1 {
		t.Fatalf("shield on a damaged ship: %+v, want shield and the damage kept", sv)
	}
	h1 := tb.setHand(t, 1, Red1, Red1, Red2, White, White)
	for i, want := range []struct{ shield, damage, shieldDamage int }{{1, 1, 1}, {0, 1, 0}} {
		tb.setTurn(1)
		tb.mustPlay(t, 1, Move{Action: Attack, Card: h1[i], Face: Red1, Ship: Destroyer})
		sv := tb.ship(0, Destroyer)
		if sv.Shield != (want.shield == 1) || sv.Damage != want.damage || sv.ShieldDamage != want.shieldDamage {
			t.Fatalf("after peg %d: %+v, want %+v", i+1, sv, want)
		}
	}
	if d0, d1 := tb.Game.Discard(0), tb.Game.Discard(1); d0[ShieldCard] != 1 || d1[Red1] != 2 {
		t.Fatalf("destroyed shield and its pegs not discarded: %v / %v", d0, d1)
	}
	tb.setTurn(1)
	tb.mustPlay(t, 1, Move{Action: Attack, Card: h1[2], Face: Red2, Ship: Destroyer})
	if !tb.ship(0, Destroyer).Sunk {
		t.Fatal("destroyer with 1+2 hits not sunk once the shield was gone")
	}
}

func TestShieldTakesOnlyItsPegs(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 1, Battleship, 0)
	tb.shield(t, 1, Battleship)
	hand := tb.setHand(t, 0, Red4, Red2, White, White, White)
	tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[0], Face: Red4, Ship: Battleship})
	sv := tb.ship(1, Battleship)
	if sv.Shield || sv.Damage != 0 || sv.Sunk {
		t.Fatalf("a 4-peg card on a shield: %+v, want the shield gone and no damage to the ship", sv)
	}
}

func TestShieldPlacement(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 0, Carrier, 0)
	tb.shield(t, 0, Carrier)
	tb.sinkShip(t, 0, PTBoat, 1)
	hand := tb.setHand(t, 0, ShieldCard, Red1, White, White, White)
	for _, tc := range []struct {
		name string
		m    Move
	}{
		{"facedown ship", Move{Action: PlaceShield, Card: hand[0], Face: ShieldCard, Ship: Battleship}},
		{"sunk ship", Move{Action: PlaceShield, Card: hand[0], Face: ShieldCard, Ship: PTBoat}},
		{"second shield", Move{Action: PlaceShield, Card: hand[0], Face: ShieldCard, Ship: Carrier}},
		{"red card as a shield", Move{Action: PlaceShield, Card: hand[1], Face: Red1, Ship: Carrier}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tb.Game.Hash()
			_, err := tb.playMove(0, tc.m)
			wantIllegal(t, tb, before, err)
		})
	}
}

// TestPlayTwo: "Play two more cards." The power card is the turn's play,
// then two more plays, then the reload.
func TestPlayTwo(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	hand := tb.setHand(t, 0, DiscardPlay, White, White, Red1, Red1)
	tb.mustPlay(t, 0, Move{Action: PlayTwo, Card: hand[0], Face: DiscardPlay})
	if tb.Game.PlaysLeft() != 2 || tb.Game.Next().Seat != 0 || tb.Game.Next().Kind != engine.NeedMove {
		t.Fatalf("after play2: %d plays left, need %+v", tb.Game.PlaysLeft(), tb.Game.Next())
	}
	tb.tapTo(t, 0, hand[1], White, 0, NoShip)
	tb.settle(t)
	if tb.Game.Turn() != 0 || tb.Game.PlaysLeft() != 1 {
		t.Fatalf("second play: turn %s plays %d", tb.Game.Turn(), tb.Game.PlaysLeft())
	}
	tb.tapTo(t, 0, hand[2], White, 1, NoShip)
	tb.settle(t)
	if tb.Game.Turn() != 1 {
		t.Fatalf("turn did not pass after three plays")
	}
	if n := len(tb.Game.Hand(0)); n != HandSize {
		t.Fatalf("reloaded to %d cards, want %d", n, HandSize)
	}
}

// TestDiscardWhite: "Discard one or more white peg cards. This allows you to
// draw more cards when reloading your hand."
func TestDiscardWhite(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	hand := tb.setHand(t, 0, DiscardPlay, White, White, White, Red1)
	var draws []int
	tb.BeforeApply(func(n engine.Need, in engine.Input) {
		if in.Kind == engine.NeedRandom {
			draws = append(draws, n.Bound)
		}
	})
	tb.mustPlay(t, 0, Move{Action: DiscardWhite, Card: hand[0], Face: DiscardPlay, Discard: hand[1:4]})
	tb.settle(t)
	if d := tb.Game.Discard(0); d[White] != 3 || d[DiscardPlay] != 1 {
		t.Fatalf("discard pile %v, want 3 white and the power card", d)
	}
	if n := len(tb.Game.Hand(0)); n != HandSize {
		t.Fatalf("hand %d after the reload, want %d", n, HandSize)
	}
	if len(draws) != 1 || draws[0] != drawBound(21, 4) {
		t.Fatalf("reload rolls %v, want one 4-card draw from 21 (bound %d)", draws, drawBound(21, 4))
	}
	t.Run("only white cards", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		hand := tb.setHand(t, 0, DiscardPlay, White, Red1, White, White)
		before := tb.Game.Hash()
		_, err := tb.playMove(0, Move{Action: DiscardWhite, Card: hand[0], Face: DiscardPlay, Discard: hand[1:3]})
		wantIllegal(t, tb, before, err)
		_, err = tb.playMove(0, Move{Action: DiscardWhite, Card: hand[0], Face: DiscardPlay, Discard: []CardRef{hand[1], hand[1]}})
		wantIllegal(t, tb, before, err)
		_, err = tb.playMove(0, Move{Action: DiscardWhite, Card: hand[0], Face: DiscardPlay, Discard: []CardRef{hand[0]}})
		wantIllegal(t, tb, before, err)
		_, err = tb.playMove(0, Move{Action: DiscardWhite, Card: hand[0], Face: DiscardPlay})
		wantIllegal(t, tb, before, err)
		pile := tb.leafOf(t, 0, White)
		_, err = tb.playMove(0, Move{Action: DiscardWhite, Card: hand[0], Face: DiscardPlay, Discard: []CardRef{pile}})
		wantIllegal(t, tb, before, err)
	})
}

// TestRepairThenPlay: "Remove one peg card from one of your damaged ships,
// then play another card on the same turn. This power does not work on
// shields."
func TestRepairThenPlay(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 0, Battleship, 4)
	tb.peg(t, 1, Battleship, Red2, false)
	tb.peg(t, 1, Battleship, Red1, false)
	hand := tb.setHand(t, 0, RepairDraw, White, White, White, White)
	tb.mustPlay(t, 0, Move{Action: Repair, Card: hand[0], Face: RepairDraw, Ship: Battleship, Peg: 0})
	if sv := tb.ship(0, Battleship); !slices.Equal(sv.Pegs, []Face{Red1}) || sv.Damage != 1 {
		t.Fatalf("after the repair: %+v, want one red1 left", sv)
	}
	if tb.Game.Discard(1)[Red2] != 1 {
		t.Fatalf("the removed card did not go to its owner's discard pile: %v", tb.Game.Discard(1))
	}
	if n := tb.Game.Next(); n.Kind != engine.NeedMove || n.Seat != 0 || tb.Game.PlaysLeft() != 1 {
		t.Fatalf("no further play after the repair: %+v", n)
	}
	t.Run("not on shields", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		tb.reveal(t, 0, Battleship, 4)
		tb.shield(t, 0, Battleship)
		tb.peg(t, 1, Battleship, Red1, true)
		hand := tb.setHand(t, 0, RepairDraw, White, White, White, White)
		before := tb.Game.Hash()
		_, err := tb.playMove(0, Move{Action: Repair, Card: hand[0], Face: RepairDraw, Ship: Battleship, Peg: 0})
		wantIllegal(t, tb, before, err)
	})
	t.Run("needs a damaged ship", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		tb.reveal(t, 0, Carrier, 4)
		hand := tb.setHand(t, 0, RepairDraw, White, White, White, White)
		before := tb.Game.Hash()
		for _, k := range []Ship{Carrier, Battleship, NoShip} {
			_, err := tb.playMove(0, Move{Action: Repair, Card: hand[0], Face: RepairDraw, Ship: k, Peg: 0})
			wantIllegal(t, tb, before, err)
		}
	})
}

// TestDrawThree: "Draw three cards from your deck, then play one of them.
// Keep the remaining two cards in your hand."
func TestDrawThree(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	hand := tb.setHand(t, 0, RepairDraw, White, White, White, White)
	tb.mustPlay(t, 0, Move{Action: Draw3, Card: hand[0], Face: RepairDraw})
	tb.settle(t)
	drawn := tb.Game.MustPlayFrom()
	if len(drawn) != 3 || len(tb.Game.Hand(0)) != 7 {
		t.Fatalf("drew %v, hand %d; want 3 drawn and 7 in hand", drawn, len(tb.Game.Hand(0)))
	}
	before := tb.Game.Hash()
	_, err := tb.playMove(0, Move{Action: Tap, Card: hand[1], Face: White, Pos: 0})
	wantIllegal(t, tb, before, err)
	moves := tb.Game.LegalMoves(0, tb.Secrets(0))
	for _, m := range moves {
		if !slices.Contains(drawn, m.Card) {
			t.Fatalf("legal move %v plays a card not just drawn", m)
		}
	}
	// Play a drawn card that needs no flip, or tap.
	m := moves[0]
	tb.mustPlay(t, 0, m)
	tb.settle(t)
	if m.Action == PlayTwo || m.Action == Draw3 || m.Action == Repair {
		return // the drawn card granted further plays; the rest is other tests' business
	}
	if n := len(tb.Game.Hand(0)); n != 6 {
		t.Fatalf("hand %d after draw 3 and one play, want 6 kept (no reload above 5)", n)
	}
	if tb.Game.Turn() != 1 {
		t.Fatalf("turn did not pass")
	}
}

func TestDeadCardDiscard(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	hand := tb.setHand(t, 0, ShieldCard, White, Red1, DiscardPlay, White)
	// No revealed ship of seat 0: the shield has no use.
	tb.mustPlay(t, 0, Move{Action: DiscardDead, Card: hand[0], Face: ShieldCard})
	if tb.Game.Discard(0)[ShieldCard] != 1 {
		t.Fatal("dead shield not discarded")
	}
	tb.settle(t)
	tb.setTurn(0)
	before := tb.Game.Hash()
	for _, i := range []int{1, 2, 3} {
		_, err := tb.playMove(0, Move{Action: DiscardDead, Card: hand[i], Face: []Face{ShieldCard, White, Red1, DiscardPlay}[i]})
		wantIllegal(t, tb, before, err)
	}
	// Turn every enemy card faceup and sink the Submarine: whites are dead.
	for pos, k := range []Ship{Carrier, Battleship, Destroyer, Submarine, PTBoat} {
		tb.reveal(t, 1, k, pos)
	}
	tb.Game.players[1].ships[Submarine].sunk = true
	for leaf := 5; leaf < GridSize; leaf++ {
		p := &tb.Game.players[1]
		p.grid[leaf] = leaf
		p.coords.placed[leaf], p.coords.opened[leaf] = true, true
		p.coords.seen[NoShip]++
	}
	tb.mustPlay(t, 0, Move{Action: DiscardDead, Card: hand[1], Face: White})
}

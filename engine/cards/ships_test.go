package cards

import (
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// TestSubmarine: "Only white peg cards can damage this ship, including the
// one that reveals it. Your opponent discards any red peg cards played on
// this ship."
func TestSubmarine(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	hand := tb.setHand(t, 0, White, Red2, White, White, Red4)
	tb.tapTo(t, 0, hand[0], White, 7, Submarine)
	if d := tb.ship(1, Submarine).Damage; d != 1 {
		t.Fatalf("revealing white peg did %d damage, want 1", d)
	}
	tb.settle(t)
	tb.setTurn(0)
	evs := tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[1], Face: Red2, Ship: Submarine})
	if sv := tb.ship(1, Submarine); sv.Damage != 1 || len(sv.Pegs) != 1 || !hasEvent(evs, "wasted") {
		t.Fatalf("red pegs damaged the submarine: %+v", sv)
	}
	if tb.Game.Discard(0)[Red2] != 1 {
		t.Fatalf("red card on the submarine not discarded: %v", tb.Game.Discard(0))
	}
	for i := 2; i <= 3; i++ {
		tb.settle(t)
		tb.setTurn(0)
		tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[i], Face: White, Ship: Submarine})
	}
	if !tb.ship(1, Submarine).Sunk {
		t.Fatal("three white pegs did not sink the submarine")
	}
	t.Run("shielded submarine", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		tb.reveal(t, 1, Submarine, 3)
		tb.shield(t, 1, Submarine)
		hand := tb.setHand(t, 0, Red4, White, White, White, White)
		tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[0], Face: Red4, Ship: Submarine})
		if sv := tb.ship(1, Submarine); !sv.Shield || sv.ShieldDamage != 0 {
			t.Fatalf("a red peg hurt the submarine's shield: %+v", sv)
		}
		tb.settle(t)
		tb.setTurn(0)
		tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[1], Face: White, Ship: Submarine})
		if sv := tb.ship(1, Submarine); sv.ShieldDamage != 1 || sv.Damage != 0 {
			t.Fatalf("a white peg on the shielded submarine: %+v, want the shield hit", sv)
		}
	})
}

// TestPTBoat: "At the start of your turn, remove one peg card from any one
// of your revealed ships. This power does not work on shields."
func TestPTBoat(t *testing.T) {
	setup := func(t *testing.T) *table {
		tb := newFixture(t, VariantStandard, 1)
		tb.reveal(t, 0, PTBoat, 0)
		tb.reveal(t, 0, Carrier, 1)
		tb.peg(t, 1, Carrier, Red1, false)
		tb.peg(t, 1, Carrier, Red2, false)
		h := tb.setHand(t, 1, White, White, White, White, White)
		tb.tapTo(t, 1, h[0], White, 5, NoShip) // seat 1's turn ends
		tb.settle(t)
		return tb
	}
	t.Run("repair at the start of the turn", func(t *testing.T) {
		tb := setup(t)
		n := tb.Game.Next()
		if n.Kind != engine.NeedMove || n.Seat != 0 || tb.Game.step != stStart {
			t.Fatalf("no PT Boat decision at the start of seat 0's turn: %+v", n)
		}
		moves := tb.Game.LegalMoves(0, tb.Secrets(0))
		if len(moves) != 3 || moves[0].Action != Skip {
			t.Fatalf("PT Boat choices %v, want skip and two pegs", moves)
		}
		before := tb.Game.Hash()
		h0 := tb.Game.Hand(0)
		_, err := tb.playMove(0, Move{Action: Tap, Card: h0[0], Face: White, Pos: 0})
		wantIllegal(t, tb, before, err)
		tb.mustPlay(t, 0, Move{Action: PTRepair, Ship: Carrier, Peg: 1})
		if sv := tb.ship(0, Carrier); !slices.Equal(sv.Pegs, []Face{Red1}) {
			t.Fatalf("carrier pegs %v after removing the two-peg card", sv.Pegs)
		}
		if tb.Game.Discard(1)[Red2] != 1 {
			t.Fatal("removed card not in its owner's discard pile")
		}
		if tb.Game.step != stPlay || tb.Game.Next().Seat != 0 {
			t.Fatal("no play after the PT Boat repair")
		}
	})
	t.Run("skip", func(t *testing.T) {
		tb := setup(t)
		tb.mustPlay(t, 0, Move{Action: Skip})
		if len(tb.ship(0, Carrier).Pegs) != 2 || tb.Game.step != stPlay {
			t.Fatal("skip changed the ship or did not go on to the play")
		}
	})
	t.Run("no repair outside the start of the turn", func(t *testing.T) {
		tb := setup(t)
		tb.mustPlay(t, 0, Move{Action: Skip})
		before := tb.Game.Hash()
		_, err := tb.playMove(0, Move{Action: PTRepair, Ship: Carrier, Peg: 0})
		wantIllegal(t, tb, before, err)
	})
	for _, tc := range []struct {
		name    string
		variant string
		arrange func(t *testing.T, tb *table)
	}{
		{"no PT Boat revealed", VariantStandard, func(t *testing.T, tb *table) {
			tb.reveal(t, 0, Carrier, 1)
			tb.peg(t, 1, Carrier, Red1, false)
		}},
		{"PT Boat sunk", VariantStandard, func(t *testing.T, tb *table) {
			tb.sinkShip(t, 0, PTBoat, 0)
			tb.reveal(t, 0, Carrier, 1)
			tb.peg(t, 1, Carrier, Red1, false)
		}},
		{"only shield pegs", VariantStandard, func(t *testing.T, tb *table) {
			tb.reveal(t, 0, PTBoat, 0)
			tb.reveal(t, 0, Carrier, 1)
			tb.shield(t, 0, Carrier)
			tb.peg(t, 1, Carrier, Red1, true)
		}},
		{"beginner rules", VariantBeginner, func(t *testing.T, tb *table) {
			tb.reveal(t, 0, PTBoat, 0)
			tb.reveal(t, 0, Carrier, 1)
			tb.peg(t, 1, Carrier, Red1, false)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newFixture(t, tc.variant, 1)
			tc.arrange(t, tb)
			h := tb.setHand(t, 1, White, White, White, White, White)
			tb.tapTo(t, 1, h[0], White, 5, NoShip)
			tb.settle(t)
			if tb.Game.step != stPlay || tb.Game.Turn() != 0 {
				t.Fatalf("step %d turn %s, want seat 0 to play without a PT Boat decision", tb.Game.step, tb.Game.Turn())
			}
			before := tb.Game.Hash()
			_, err := tb.playMove(0, Move{Action: PTRepair, Ship: Carrier, Peg: 0})
			wantIllegal(t, tb, before, err)
		})
	}
}

// TestDestroyer: "You may now play white peg cards as well as red peg cards
// to damage enemy ships or shields." and "If your Destroyer is sunk, its
// power immediately ends. Discard any white pegs still in play (except on a
// Submarine)."
func TestDestroyer(t *testing.T) {
	t.Run("your opponent finds your destroyer", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 1)
		tb.reveal(t, 1, Carrier, 0)
		h1 := tb.setHand(t, 1, White, White, White, White, White)
		h0 := tb.setHand(t, 0, White, White, White, White, White)
		tb.setTurn(0)
		before := tb.Game.Hash()
		_, err := tb.playMove(0, Move{Action: Attack, Card: h0[0], Face: White, Ship: Carrier})
		wantIllegal(t, tb, before, err)
		tb.setTurn(1)
		tb.tapTo(t, 1, h1[0], White, 2, Destroyer)
		tb.settle(t)
		tb.mustPlay(t, 0, Move{Action: Attack, Card: h0[0], Face: White, Ship: Carrier})
		if d := tb.ship(1, Carrier).Damage; d != 1 {
			t.Fatalf("white peg with the destroyer's power did %d damage, want 1", d)
		}
	})
	t.Run("destroyer sinks", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 1)
		tb.reveal(t, 0, Destroyer, 0)
		tb.peg(t, 1, Destroyer, Red2, false)
		tb.reveal(t, 1, Carrier, 0)
		tb.reveal(t, 1, Submarine, 1)
		tb.reveal(t, 1, Battleship, 2)
		tb.shield(t, 1, Battleship)
		tb.peg(t, 0, Carrier, White, false)
		tb.peg(t, 0, Carrier, Red1, false)
		tb.peg(t, 0, Submarine, White, false)
		tb.peg(t, 0, Battleship, White, true)
		h1 := tb.setHand(t, 1, Red1, White, White, White, White)
		evs := tb.mustPlay(t, 1, Move{Action: Attack, Card: h1[0], Face: Red1, Ship: Destroyer})
		if !tb.ship(0, Destroyer).Sunk || !hasEvent(evs, "whites-lost") {
			t.Fatalf("destroyer not sunk or whites not lost: %v", evs)
		}
		if sv := tb.ship(1, Carrier); !slices.Equal(sv.Pegs, []Face{Red1}) {
			t.Errorf("carrier pegs %v, want the white gone", sv.Pegs)
		}
		if sv := tb.ship(1, Submarine); sv.Damage != 1 {
			t.Errorf("white peg on the submarine lost: %+v", sv)
		}
		if sv := tb.ship(1, Battleship); len(sv.ShieldPegs) != 0 {
			t.Errorf("white peg on a shield kept: %+v", sv)
		}
		if d := tb.Game.Discard(0)[White]; d != 2 {
			t.Errorf("seat 0 discarded %d white pegs, want 2", d)
		}
	})
}

// TestBattleship: "Add one red peg to each of your red peg cards in play.
// For example, a 2-peg card now counts as a 3-peg card."
func TestBattleship(t *testing.T) {
	t.Run("two pegs count three", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 0)
		tb.reveal(t, 0, Battleship, 0)
		tb.reveal(t, 1, Carrier, 0)
		hand := tb.setHand(t, 0, Red2, White, White, White, White)
		tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[0], Face: Red2, Ship: Carrier})
		if d := tb.ship(1, Carrier).Damage; d != 3 {
			t.Fatalf("damage %d, want 3", d)
		}
	})
	t.Run("revealing the battleship counts at once", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 1)
		tb.reveal(t, 1, Carrier, 0)
		tb.peg(t, 0, Carrier, Red2, false)
		tb.peg(t, 0, Carrier, Red1, false)
		h1 := tb.setHand(t, 1, White, White, White, White, White)
		tb.tapTo(t, 1, h1[0], White, 4, Battleship)
		if !tb.ship(1, Carrier).Sunk {
			t.Fatalf("carrier with 2+1 red pegs not sunk once seat 0's battleship counts: %+v", tb.ship(1, Carrier))
		}
	})
	t.Run("power ends when the battleship sinks", func(t *testing.T) {
		tb := newFixture(t, VariantStandard, 1)
		tb.reveal(t, 0, Battleship, 0)
		tb.reveal(t, 1, Carrier, 0)
		tb.peg(t, 0, Carrier, Red2, false)
		if d := tb.ship(1, Carrier).Damage; d != 3 {
			t.Fatalf("damage %d, want 3", d)
		}
		h1 := tb.setHand(t, 1, Red4, White, White, White, White)
		tb.mustPlay(t, 1, Move{Action: Attack, Card: h1[0], Face: Red4, Ship: Battleship})
		if !tb.ship(0, Battleship).Sunk {
			t.Fatal("battleship not sunk by four pegs")
		}
		if d := tb.ship(1, Carrier).Damage; d != 2 {
			t.Fatalf("damage %d after the battleship sank, want 2", d)
		}
	})
}

// TestCarrierReload: "Reload your hand to seven cards at the end of your
// turn, instead of five."
func TestCarrierReload(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 0, Carrier, 0)
	hand := tb.setHand(t, 0, White, White, White, White, White)
	tb.tapTo(t, 0, hand[0], White, 0, NoShip)
	tb.settle(t)
	if n := len(tb.Game.Hand(0)); n != CarrierHandSize {
		t.Fatalf("reloaded to %d with the carrier revealed, want %d", n, CarrierHandSize)
	}
	tb.Game.players[0].ships[Carrier].sunk = true
	hand = tb.setHand(t, 0, White, White, White, White)
	tb.setTurn(0)
	tb.tapTo(t, 0, hand[0], White, 1, NoShip)
	tb.settle(t)
	if n := len(tb.Game.Hand(0)); n != HandSize {
		t.Fatalf("reloaded to %d once the carrier sank, want %d", n, HandSize)
	}
	t.Run("beginner", func(t *testing.T) {
		tb := newFixture(t, VariantBeginner, 0)
		tb.reveal(t, 0, Carrier, 0)
		hand := tb.setHand(t, 0, White, White, White, White, White)
		tb.tapTo(t, 0, hand[0], White, 0, NoShip)
		tb.settle(t)
		if n := len(tb.Game.Hand(0)); n != HandSize {
			t.Fatalf("beginner reload %d, want %d", n, HandSize)
		}
	})
}

// TestBeginnerIgnoresShipPowers: "the ship powers are not used".
func TestBeginnerIgnoresShipPowers(t *testing.T) {
	tb := newFixture(t, VariantBeginner, 0)
	tb.reveal(t, 0, Battleship, 0)
	tb.reveal(t, 0, Destroyer, 1)
	tb.reveal(t, 1, Submarine, 0)
	tb.reveal(t, 1, Carrier, 1)
	hand := tb.setHand(t, 0, Red2, White, White, White, White)
	before := tb.Game.Hash()
	_, err := tb.playMove(0, Move{Action: Attack, Card: hand[1], Face: White, Ship: Carrier})
	wantIllegal(t, tb, before, err)
	_, err = tb.playMove(0, Move{Action: Attack, Card: hand[1], Face: White, Ship: Submarine})
	wantIllegal(t, tb, before, err)
	tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[0], Face: Red2, Ship: Submarine})
	if d := tb.ship(1, Submarine).Damage; d != 2 {
		t.Fatalf("beginner submarine took %d from a red two-peg card, want 2 (no battleship bonus, no submarine power)", d)
	}
	for _, k := range Ships {
		if tb.Game.PowerOn(0, k) || tb.Game.PowerOn(1, k) {
			t.Fatalf("%s power on in the beginner game", k)
		}
	}
}

package cards

import "testing"

// TestTap covers white peg searches, red peg searches with immediate hits,
// and the ship powers that change what a revealing peg does.
func TestTap(t *testing.T) {
	for _, tc := range []struct {
		name      string
		variant   string
		face      Face
		destroyer bool // the attacker's Destroyer is revealed
		find      Ship
		damage    int  // damage on the found ship afterwards
		discarded bool // the peg card went to the attacker's discard pile
	}{
		{"white peg finds a miss", VariantStandard, White, false, NoShip, 0, true},
		{"white peg finds the carrier", VariantStandard, White, false, Carrier, 0, true},
		{"red peg search finds the carrier: immediate hits", VariantStandard, Red2, false, Carrier, 2, false},
		{"red peg search finds a miss", VariantStandard, Red1, false, NoShip, 0, true},
		{"white peg that reveals the submarine damages it", VariantStandard, White, false, Submarine, 1, false},
		{"red peg search on the submarine is discarded", VariantStandard, Red4, false, Submarine, 0, true},
		{"destroyer: revealing white peg hits", VariantStandard, White, true, Battleship, 1, false},
		{"beginner: white peg reveals the submarine, no hit", VariantBeginner, White, false, Submarine, 0, true},
		{"beginner: red search hits the submarine", VariantBeginner, Red2, false, Submarine, 2, false},
		{"beginner: no destroyer power for whites", VariantBeginner, White, true, Battleship, 0, true},
		{"four-peg search sinks the battleship", VariantStandard, Red4, false, Battleship, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newFixture(t, tc.variant, 0)
			hand := tb.setHand(t, 0, tc.face, White, White, White, White)
			if tc.destroyer {
				tb.reveal(t, 0, Destroyer, 11)
			}
			evs := tb.tapTo(t, 0, hand[0], tc.face, 6, tc.find)
			cell := tb.Game.Grid(1)[6]
			if !cell.Faceup || cell.Ship != tc.find {
				t.Fatalf("tapped cell %+v, want faceup %s", cell, tc.find)
			}
			if tc.find != NoShip {
				sv := tb.ship(1, tc.find)
				if !sv.Revealed || sv.Pos != 6 {
					t.Fatalf("%s not revealed at B3: %+v", tc.find, sv)
				}
				if sv.Damage != tc.damage {
					t.Errorf("damage %d, want %d", sv.Damage, tc.damage)
				}
				if wantSunk := tc.find == Battleship && tc.face == Red4; sv.Sunk != wantSunk {
					t.Errorf("%s sunk = %v, want %v", tc.find, sv.Sunk, wantSunk)
				}
			} else if !hasEvent(evs, "miss") {
				t.Errorf("no miss event in %v", evs)
			}
			if got := tb.Game.Discard(0)[tc.face] == 1; got != tc.discarded {
				t.Errorf("peg card discarded %v, want %v (discard %v)", got, tc.discarded, tb.Game.Discard(0))
			}
		})
	}
}

func TestTapNeedsAFacedownCard(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	hand := tb.setHand(t, 0, White, White, Red1, ShieldCard, White)
	tb.tapTo(t, 0, hand[0], White, 3, NoShip)
	tb.settle(t)
	tb.setTurn(0)
	for _, tc := range []struct {
		name string
		m    Move
	}{
		{"faceup position", Move{Action: Tap, Card: hand[1], Face: White, Pos: 3}},
		{"off the grid", Move{Action: Tap, Card: hand[1], Face: White, Pos: 12}},
		{"negative position", Move{Action: Tap, Card: hand[1], Face: White, Pos: -1}},
		{"power card taps", Move{Action: Tap, Card: hand[3], Face: ShieldCard, Pos: 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tb.Game.Hash()
			_, err := tb.playMove(0, tc.m)
			wantIllegal(t, tb, before, err)
		})
	}
}

// TestRulebookCarrierExample: "You play a red peg card on your opponent's
// Aircraft Carrier. Count two hits for the two red pegs on your card." then
// "You play a second red peg card on the Aircraft Carrier, for a total of six
// hits. You sank the carrier!"
func TestRulebookCarrierExample(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 1, Carrier, 0)
	hand := tb.setHand(t, 0, Red2, Red4, White, White, White)
	tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[0], Face: Red2, Ship: Carrier})
	if d := tb.ship(1, Carrier).Damage; d != 2 {
		t.Fatalf("carrier damage %d after a two-peg card, want 2", d)
	}
	tb.settle(t)
	tb.setTurn(0)
	evs := tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[1], Face: Red4, Ship: Carrier})
	sv := tb.ship(1, Carrier)
	if !sv.Sunk || !hasEvent(evs, "sunk") {
		t.Fatalf("carrier not sunk at six hits: %+v", sv)
	}
	if d := tb.Game.Discard(0); d[Red2] != 1 || d[Red4] != 1 {
		t.Errorf("the peg cards did not go to the attacker's discard pile: %v", d)
	}
	if len(sv.Pegs) != 0 {
		t.Errorf("sunk ship still carries %v", sv.Pegs)
	}
}

// TestRulebookFourPegTip: "Your 4-peg card is a valuable weapon: it will
// immediately sink any ship except the Aircraft Carrier."
func TestRulebookFourPegTip(t *testing.T) {
	for _, k := range []Ship{Carrier, Battleship, Destroyer, PTBoat} { // only white pegs hurt the Submarine
		t.Run(k.String(), func(t *testing.T) {
			tb := newFixture(t, VariantStandard, 0)
			tb.reveal(t, 1, k, 0)
			hand := tb.setHand(t, 0, Red4, White, White, White, White)
			tb.mustPlay(t, 0, Move{Action: Attack, Card: hand[0], Face: Red4, Ship: k})
			if sunk := tb.ship(1, k).Sunk; sunk != (k != Carrier) {
				t.Errorf("%s sunk = %v after a 4-peg card", k.Title(), sunk)
			}
		})
	}
}

func TestAttackNeedsARevealedShipAfloat(t *testing.T) {
	tb := newFixture(t, VariantStandard, 0)
	tb.sinkShip(t, 1, PTBoat, 2)
	hand := tb.setHand(t, 0, Red1, White, White, White, White)
	for _, tc := range []struct {
		name string
		m    Move
	}{
		{"facedown ship", Move{Action: Attack, Card: hand[0], Face: Red1, Ship: Carrier}},
		{"sunk ship", Move{Action: Attack, Card: hand[0], Face: Red1, Ship: PTBoat}},
		{"no ship", Move{Action: Attack, Card: hand[0], Face: Red1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := tb.Game.Hash()
			_, err := tb.playMove(0, tc.m)
			wantIllegal(t, tb, before, err)
		})
	}
}

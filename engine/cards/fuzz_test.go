package cards

import (
	"errors"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

func FuzzDecodeMove(f *testing.F) {
	for _, m := range []Move{
		{Action: Tap, Card: CardRef{Deck: 1, Leaf: 3}, Face: White, Pos: 5},
		{Action: Attack, Card: CardRef{Deck: 2, Leaf: 0}, Face: Red4, Ship: Carrier},
		{Action: DiscardWhite, Card: CardRef{Deck: 1, Leaf: 22}, Face: DiscardPlay, Discard: []CardRef{{1, 0}, {1, 1}}},
		{Action: PTRepair, Ship: PTBoat, Peg: 1},
		{Action: Skip},
	} {
		f.Add(m.Encode())
	}
	f.Add([]byte(`{"action":"tap","face":"none"}`))
	f.Add([]byte(`{"action":"skip"} {}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMove(b)
		if err != nil {
			if !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("decode error %v does not wrap ErrIllegal", err)
			}
			return
		}
		again, err := DecodeMove(m.Encode())
		if err != nil {
			t.Fatalf("re-decoding %s: %v", m.Encode(), err)
		}
		if again.Action != m.Action || again.Card != m.Card || again.Face != m.Face || again.Pos != m.Pos ||
			again.Ship != m.Ship || again.Peg != m.Peg || !slices.Equal(again.Discard, m.Discard) {
			t.Fatalf("round trip %+v -> %+v", m, again)
		}
	})
}

// midGame returns a fixture where seat 0 is to play with a mixed hand and a
// revealed, damaged board on both sides.
func midGame(t *testing.T) *table {
	tb := newFixture(t, VariantStandard, 0)
	tb.reveal(t, 1, Carrier, 0)
	tb.reveal(t, 1, Submarine, 1)
	tb.reveal(t, 0, Battleship, 2)
	tb.reveal(t, 0, PTBoat, 3)
	tb.peg(t, 1, Battleship, Red1, false)
	tb.shield(t, 1, Carrier)
	tb.setHand(t, 0, White, Red2, DiscardPlay, RepairDraw, ShieldCard, White)
	return tb
}

func FuzzApplyMove(f *testing.F) {
	f.Add(Move{Action: Tap, Card: CardRef{Deck: 1, Leaf: 0}, Face: White, Pos: 5}.Encode())
	f.Add(Move{Action: Attack, Card: CardRef{Deck: 1, Leaf: 16}, Face: Red2, Ship: Carrier}.Encode())
	f.Add(Move{Action: Repair, Card: CardRef{Deck: 1, Leaf: 24}, Face: RepairDraw, Ship: Battleship}.Encode())
	f.Add(Move{Action: DiscardWhite, Card: CardRef{Deck: 1, Leaf: 22}, Face: DiscardPlay, Discard: []CardRef{{1, 0}}}.Encode())
	f.Add(Move{Action: PlaceShield, Card: CardRef{Deck: 1, Leaf: 20}, Face: ShieldCard, Ship: PTBoat}.Encode())
	f.Add([]byte(`{"action":"pt-repair","ship":"battleship","peg":-3}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tb := midGame(t)
		before := tb.Game.Hash()
		slots, err := tb.Game.MustOpen(0, b)
		var opened []engine.Opened
		if err == nil {
			opened = tb.open(slots)
		}
		_, err = tb.Game.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: b, Opened: opened})
		if err != nil {
			if !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("error %v does not wrap ErrIllegal", err)
			}
			if tb.Game.Hash() != before {
				t.Fatal("rejected move changed the state")
			}
			return
		}
		if err := checkInvariants(tb.Game); err != nil {
			t.Fatalf("accepted move %s broke an invariant: %v", b, err)
		}
	})
}

func FuzzLeafValues(f *testing.F) {
	f.Add([]byte{0}, []byte{1})
	f.Add([]byte{5}, []byte{7})
	f.Add([]byte{6}, []byte{0})
	f.Add([]byte{}, []byte{1, 2})
	f.Fuzz(func(t *testing.T, coord, card []byte) {
		if k, err := DecodeCoord(coord); err == nil {
			if string(EncodeCoord(k)) != string(coord) {
				t.Fatalf("coordinate %v decodes to %s, encodes back to %v", coord, k, EncodeCoord(k))
			}
		} else if !errors.Is(err, engine.ErrIllegal) {
			t.Fatal(err)
		}
		if fc, err := DecodeCard(card); err == nil {
			if string(EncodeCard(fc)) != string(card) || !fc.Valid() {
				t.Fatalf("card %v decodes to %s", card, fc)
			}
		} else if !errors.Is(err, engine.ErrIllegal) {
			t.Fatal(err)
		}
		// The defender opens the tapped leaf with the fuzzed value.
		tb := newFixture(t, VariantStandard, 0)
		tb.mustPlay(t, 0, Move{Action: Tap, Card: tb.Game.Hand(0)[0], Face: White, Pos: 4})
		if _, err := tb.Step(); err != nil {
			t.Fatal(err)
		}
		n := tb.Game.Next()
		before := tb.Game.Hash()
		_, err := tb.Game.Apply(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: []engine.Opened{{Slot: n.Open[0], Value: coord}}})
		if _, derr := DecodeCoord(coord); (derr == nil) != (err == nil) {
			t.Fatalf("open with %v: decode error %v, apply error %v", coord, derr, err)
		}
		if err != nil && tb.Game.Hash() != before {
			t.Fatal("rejected opening changed the state")
		}
		// The mover plays a card whose opened value is the fuzzed card value.
		tb = newFixture(t, VariantStandard, 0)
		c := tb.Game.Hand(0)[0]
		before = tb.Game.Hash()
		_, err = tb.Game.Apply(engine.Input{Kind: engine.NeedMove, Seat: 0, Move: Move{Action: Tap, Card: c, Face: White, Pos: 4}.Encode(),
			Opened: []engine.Opened{{Slot: cardSlot(0, c), Value: card}}})
		if err != nil && tb.Game.Hash() != before {
			t.Fatal("rejected move changed the state")
		}
		if err == nil && (len(card) != 1 || Face(card[0]) != White) {
			t.Fatalf("a card opened as %v was accepted as a white peg", card)
		}
	})
}

func TestEncodeNeverFailsDecodeRejectsBadValues(t *testing.T) {
	for _, m := range []Move{
		{},
		{Action: Tap, Face: Face(99)},
		{Action: Attack, Face: Red1, Ship: Ship(42)},
		{Action: numActions},
	} {
		b := m.Encode()
		if _, err := DecodeMove(b); err == nil {
			t.Errorf("move %s decoded", b)
		}
	}
}

// honestMoves are moves as an honest peer encodes them.
var honestMoves = [][]byte{
	Move{Action: Tap, Card: CardRef{Deck: 1, Leaf: 3}, Face: White, Pos: 5}.Encode(),
	Move{Action: Attack, Card: CardRef{Deck: 2, Leaf: 0}, Face: Red4, Ship: Carrier}.Encode(),
	Move{Action: DiscardWhite, Card: CardRef{Deck: 1, Leaf: 22}, Face: DiscardPlay, Discard: []CardRef{{1, 0}, {1, 1}}}.Encode(),
	Move{Action: PTRepair, Ship: PTBoat, Peg: 1}.Encode(),
	Move{Action: Skip}.Encode(),
	[]byte(`{"action":"tap","face":"none"}`),
}

// FuzzReadMove holds the move reader (DecodeMove's fast path) to the
// strict decoder it speeds up: the same move or the same error.
func FuzzReadMove(f *testing.F) {
	for _, b := range enginetest.MoveReaderSeeds(honestMoves...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		enginetest.SameAsDecodeMove(t, b, readMove)
		enginetest.SameAsDecodeMoveWith(t, b, decodeFields, readMove)
	})
}

func TestReadMoveTakesHonestMoves(t *testing.T) {
	enginetest.CheckMoveReader(t, honestMoves[:5], readMove)
}

package oceans

import (
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// The cheats of issue 8, point 5, each rejected by Apply. The referee checks
// every opening against its commitment before the engine sees it (a leaf's
// value cannot change); the engine makes sure the right leaves are opened,
// and that what they show is legal.

// northAtlanticBattle plays base on: seat 1 adds the two given leaves
// (drawn from its deck) facedown to its North Atlantic Battleship; seat 0
// builds a fleet of 10 and attacks there. It returns the harness when seat
// 1 must reveal.
func northAtlanticBattle(t *testing.T, add1 [2]int) *harness {
	t.Helper()
	h := base(t)
	h.draw(add1[0], add1[1])
	h.do(1, Move{Kind: Place, Leaf: add1[0], Ocean: NorthAtlantic})
	h.do(1, Move{Kind: Place, Leaf: add1[1], Ocean: NorthAtlantic})
	turns := [][2]int{{L(Fighter, 1), L(Fighter, 2)}, {L(Fighter, 3), L(Fighter, 4)}, {L(Fighter, 5), L(Battleship, 2)}}
	for i, d := range turns {
		h.draw(d[0], d[1])
		h.do(0, Move{Kind: Place, Leaf: d[0], Ocean: Indian})
		h.do(0, Move{Kind: Place, Leaf: d[1], Ocean: Arctic})
		h.draw(L(Fighter, 2*i), L(Fighter, 2*i+1))
		h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 2*i)})
		h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 2*i+1)})
	}
	h.draw(L(Battleship, 3), L(PTBoat, 0))
	h.do(0, Move{Kind: Place, Leaf: L(Battleship, 3), Ocean: NorthAtlantic})
	if h.Game.FleetSize(0) != 10 {
		t.Fatalf("fleet %d", h.Game.FleetSize(0))
	}
	h.do(0, Move{Kind: Attack, Ocean: NorthAtlantic})
	n := needIs(t, h.Game, engine.NeedOpen, 0)
	if !slices.Equal(slotLeaves(n.Open), []int{L(Battleship, 3)}) {
		t.Fatalf("attacker opens %v, want exactly its facedown Battleship", n.Open)
	}
	h.open()
	n = needIs(t, h.Game, engine.NeedOpen, 1)
	if !slices.Equal(slotLeaves(n.Open), add1[:]) {
		t.Fatalf("defender opens %v, want exactly the leaves it played there %v", n.Open, add1)
	}
	return h
}

func TestCheatFacedownCardChanges(t *testing.T) {
	h := northAtlanticBattle(t, [2]int{L(Minefield, 0), L(DepthCharges, 0)})
	n := h.Game.Next()
	good := h.openings(n.Open)
	// Swapping the Depth Charges for a card still in the hand.
	inHand := h.openings([]engine.Slot{FleetSlot(1, L(Carrier, 0))})
	swapped := slices.Clone(good)
	swapped[1] = inHand[0]
	wantIllegal(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: swapped}), "was not asked for")
	// Opening one card too few, one too many, or one twice.
	wantIllegal(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: good[:1]}), "1 slots opened, want 2")
	extra := append(slices.Clone(good), inHand...)
	wantIllegal(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: extra}), "3 slots opened, want 2")
	dup := []engine.Opened{good[0], good[0]}
	wantIllegal(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: dup}), "opened twice")
	// A value that is no card at all.
	bad := slices.Clone(good)
	bad[0].Value = []byte{42}
	wantFault(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: bad}), 1, "not a fleet card")
	h.open()
	needIs(t, h.Game, engine.NeedMove, 1) // the defender picks Minefield or Depth Charges
}

func TestCheatCardNotDrawn(t *testing.T) {
	h := base(t)
	h.draw(L(Fighter, 0), L(Fighter, 1))
	inDeck := L(Fighter, 2)
	wantIllegal(t, h.try(1, Move{Kind: Place, Leaf: inDeck, Ocean: Arctic}), "not in seat 1's hand")
	wantIllegal(t, h.try(1, Move{Kind: Place, Leaf: L(Battleship, 0), Ocean: Arctic}), "not in seat 1's hand") // already deployed
	if _, err := h.Game.MustOpen(1, Move{Kind: Discard, Leaf: inDeck}.Encode()); err == nil {
		t.Fatal("MustOpen accepted a discard of an undrawn leaf")
	}
	// Even with a forged opening of the undrawn leaf, Apply refuses it.
	forged := engine.Input{Kind: engine.NeedMove, Seat: 1, Move: Move{Kind: Discard, Leaf: inDeck}.Encode(),
		Opened: h.openings([]engine.Slot{FleetSlot(1, inDeck)})}
	wantIllegal(t, h.tryInput(forged), "not in seat 1's hand")
	// A move that opens nothing when it must open its card, or opens another.
	bare := engine.Input{Kind: engine.NeedMove, Seat: 1, Move: Move{Kind: Discard, Leaf: L(Fighter, 0)}.Encode()}
	wantIllegal(t, h.tryInput(bare), "0 slots opened, want 1")
	place := engine.Input{Kind: engine.NeedMove, Seat: 1, Move: Move{Kind: Place, Leaf: L(Fighter, 0), Ocean: Arctic}.Encode(),
		Opened: h.openings([]engine.Slot{FleetSlot(1, L(Fighter, 0))})}
	wantIllegal(t, h.tryInput(place), "1 slots opened, want 0")
}

func TestCheatSixthCard(t *testing.T) {
	h := base(t)
	h.draw(L(Fighter, 0), L(Fighter, 1))
	h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 0)})
	h.do(1, Move{Kind: Discard, Leaf: L(Fighter, 1)})
	for _, d := range [][2]int{{L(Fighter, 1), L(Fighter, 2)}, {L(Fighter, 3), L(Fighter, 4)}} {
		h.draw(d[0], d[1])
		h.do(0, Move{Kind: Place, Leaf: d[0], Ocean: Arctic})
		h.do(0, Move{Kind: Place, Leaf: d[1], Ocean: Arctic})
		h.draw(d[0]+1, d[1]+1)
		h.do(1, Move{Kind: Discard, Leaf: d[0] + 1})
		h.do(1, Move{Kind: Discard, Leaf: d[1] + 1})
	}
	h.draw(L(Fighter, 5), L(Battleship, 2))
	h.do(0, Move{Kind: Place, Leaf: L(Fighter, 5), Ocean: Arctic})
	if n := len(h.Game.TaskForce(0, Arctic)); n != MaxTaskForce {
		t.Fatalf("Arctic task force holds %d", n)
	}
	wantIllegal(t, h.try(0, Move{Kind: Place, Leaf: L(Battleship, 2), Ocean: Arctic}), "already holds 5 cards")
	if slices.ContainsFunc(mustMoves(t, h, 0), func(m Move) bool { return m.Kind == Place && m.Ocean == Arctic }) {
		t.Fatal("legal moves offer a sixth card")
	}
}

// mustMoves lists seat's legal moves.
func mustMoves(t *testing.T, h *harness, seat engine.Seat) []Move {
	t.Helper()
	ms, err := h.Game.Moves(seat, h.Secrets(seat))
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestCheatAttackTooSmall(t *testing.T) {
	h := base(t)
	h.draw(L(Fighter, 0), L(Fighter, 1))
	h.do(1, Move{Kind: Place, Leaf: L(Fighter, 0), Ocean: NorthAtlantic})
	wantIllegal(t, h.try(1, Move{Kind: Attack, Ocean: NorthAtlantic}), "fleet of 3 cannot attack: it needs 10")
	wantIllegal(t, h.try(1, Move{Kind: Attack, Ocean: Pacific}), "no task force in the Pacific")
}

func TestCheatBattleTotal(t *testing.T) {
	// No move carries a total: the engine adds up opened cards itself (see
	// the rulebook battle). A move claiming one is undecodable.
	for _, b := range []string{
		`{"kind":"attack","leaf":0,"ocean":0,"total":12}`,
		`{"kind":"zero","leaf":28,"ocean":0,"winner":0}`,
	} {
		_, err := DecodeMove([]byte(b))
		wantIllegal(t, err, "unknown field")
	}
	// Battle decisions belong to the right seat and name a card that can
	// be chosen.
	h := northAtlanticBattle(t, [2]int{L(Minefield, 0), L(DepthCharges, 0)})
	h.open()
	wantIllegal(t, h.try(0, Move{Kind: Zero, Leaf: L(Minefield, 0)}), "needs seat 1")
	wantIllegal(t, h.try(1, Move{Kind: Zero, Leaf: L(Battleship, 0)}), "not a zero-valued card")
	wantIllegal(t, h.try(1, Move{Kind: Target, Leaf: L(Battleship, 0)}), "needs a zero move")
	wantIllegal(t, h.try(1, Move{Kind: Attack, Ocean: Arctic}), "needs a zero move")
	ev := h.do(1, Move{Kind: Zero, Leaf: L(DepthCharges, 0)})
	// Depth Charges find no Submarine; the Minefield then sinks one of seat
	// 0's two Battleships; 4 to 4 goes to the defender.
	last := ev[len(ev)-1]
	if last.Kind != "battle" || last.Text != "seat 1 wins the North Atlantic (attacker 4, defender 4)" {
		t.Fatalf("last event %+v", last)
	}
}

func TestCheatSurpriseInTaskForce(t *testing.T) {
	deck := sortedLeaves()
	hand1 := []int{L(Battleship, 0), L(Battleship, 1), L(Surprise, 0), L(Submarine, 0), L(Minefield, 0)}
	t.Run("revealed by a command", func(t *testing.T) {
		h := base(t)
		h.draw(L(Surprise, 0), L(Fighter, 0))
		h.do(1, Move{Kind: Place, Leaf: L(Surprise, 0), Ocean: NorthAtlantic}) // the engine cannot see it
		h.do(1, Move{Kind: Place, Leaf: L(Fighter, 0), Ocean: NorthAtlantic})
		h.draw(L(Fighter, 1), L(Fighter, 2))
		h.do(0, Move{Kind: Discard, Leaf: L(Fighter, 0), Targets: []int{L(Surprise, 0)}})
		n := needIs(t, h.Game, engine.NeedOpen, 1)
		wantFault(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: h.openings(n.Open)}), 1, "cannot join a task force")
	})
	t.Run("revealed in battle", func(t *testing.T) {
		h := northAtlanticBattle(t, [2]int{L(Surprise, 0), L(Minefield, 0)})
		n := h.Game.Next()
		wantFault(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: h.openings(n.Open)}), 1, "cannot join a task force")
	})
	t.Run("revealed at the end", func(t *testing.T) {
		h := arctic(t, deck, hand1, [2]int{L(Surprise, 0), L(Submarine, 0)}, true)
		h.do(0, Move{Kind: Attack, Ocean: Arctic})
		h.open()
		h.open() // seat 0's final reveal
		n := needIs(t, h.Game, engine.NeedOpen, 1)
		wantFault(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: h.openings(n.Open)}), 1, "cannot join a task force")
	})
}

func TestCheatStackedDeck(t *testing.T) {
	// Seat 1 commits five Battleships (leaf 4, a Carrier, replaced).
	stacked := sortedLeaves()
	stacked[L(Carrier, 0)] = EncodeCard(Battleship)
	t.Run("caught when a fifth Battleship is opened", func(t *testing.T) {
		h := newHarness(t, 1, nil, nil)
		h.mustApply(h.commitInput(0, sortedLeaves()))
		h.mustApply(h.commitInput(1, stacked))
		h.mustApply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: []int{0}})
		h.draw(L(Battleship, 0), L(Battleship, 1), L(Carrier, 0), L(Fighter, 0), L(Submarine, 0), L(Destroyer, 0))
		h.draw(L(Battleship, 0), L(Battleship, 1), L(Battleship, 2), L(Battleship, 3), L(Carrier, 0))
		h.do(0, Move{Kind: Deploy, Leaf: L(Battleship, 0), Ocean: NorthAtlantic})
		h.do(1, Move{Kind: Deploy, Leaf: L(Battleship, 0), Ocean: NorthAtlantic})
		h.do(0, Move{Kind: Deploy, Leaf: L(Battleship, 1), Ocean: SouthAtlantic})
		h.do(1, Move{Kind: Deploy, Leaf: L(Battleship, 1), Ocean: SouthAtlantic})
		h.do(0, Move{Kind: Deploy, Leaf: L(Carrier, 0), Ocean: Pacific})
		h.draw(L(Fighter, 0), L(Fighter, 1))
		h.do(1, Move{Kind: Discard, Leaf: L(Battleship, 2)})
		h.do(1, Move{Kind: Discard, Leaf: L(Battleship, 3)})
		h.draw(L(Fighter, 1), L(Fighter, 2))
		h.do(0, Move{Kind: Place, Leaf: L(Fighter, 1), Ocean: Arctic})
		h.do(0, Move{Kind: Place, Leaf: L(Fighter, 2), Ocean: Arctic})
		h.draw(L(Fighter, 2), L(Fighter, 3))
		wantFault(t, h.try(1, Move{Kind: Discard, Leaf: L(Carrier, 0)}), 1, "opened 5 Battleship cards, the deck holds 4")
	})
	t.Run("caught at the final reveal", func(t *testing.T) {
		h := arctic(t, stacked, []int{L(Battleship, 0), L(Battleship, 1), L(Submarine, 0), L(Minefield, 0), L(Carrier, 1)},
			[2]int{L(Submarine, 0), L(Minefield, 0)}, true)
		h.do(0, Move{Kind: Attack, Ocean: Arctic})
		h.open()
		h.open()
		n := needIs(t, h.Game, engine.NeedOpen, 1)
		wantFault(t, h.tryInput(engine.Input{Kind: engine.NeedOpen, Seat: 1, Opened: h.openings(n.Open)}), 1, "Battleship")
	})
}

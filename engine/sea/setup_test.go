package sea

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
)

func TestNewRejectsBadSetup(t *testing.T) {
	tests := []struct {
		name  string
		setup engine.Setup
	}{
		{"three seats", engine.Setup{Seats: 3}},
		{"one seat", engine.Setup{Seats: 1}},
		{"unknown variant", engine.Setup{Seats: 2, Variant: "advanced"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := New(tt.setup); err == nil {
				t.Error("accepted")
			}
		})
	}
	if _, err := Spec.New(engine.Setup{Seats: 2, Variant: Spec.Variants[0]}); err != nil {
		t.Errorf("default variant: %v", err)
	}
}

func TestSetupCommitsStrengths(t *testing.T) {
	g, _ := New(engine.Setup{Seats: 2})
	for s := range engine.Seat(2) {
		n := g.Next()
		if n.Kind != engine.NeedCommit || n.Seat != s || n.Name != StrengthsName || n.Size != FightersPerSide {
			t.Fatalf("need %+v", n)
		}
		bad := engine.Input{Kind: engine.NeedCommit, Seat: s, Commitment: &engine.Commitment{Owner: s, Name: StrengthsName, Size: 7}}
		if _, err := g.Apply(bad); err == nil {
			t.Fatal("commitment of 7 leaves accepted")
		}
		if _, err := g.Apply(engine.Input{Kind: engine.NeedCommit, Seat: s, Commitment: &engine.Commitment{Owner: s, Name: StrengthsName, Size: 8}}); err != nil {
			t.Fatal(err)
		}
	}
	n := g.Next()
	if n.Kind != engine.NeedRandom || n.Count != 2 || n.Bound != DieFaces || n.Seat != engine.NoSeat {
		t.Fatalf("order roll need %+v", n)
	}
}

func TestOrderRoll(t *testing.T) {
	tests := []struct {
		name  string
		rolls [][2]int
		first engine.Seat
	}{
		{"seat 0 lower", [][2]int{{1, 6}}, 0},
		{"seat 1 lower", [][2]int{{4, 3}}, 1},
		{"tie rolls again", [][2]int{{3, 3}, {6, 5}}, 1},
		{"two ties", [][2]int{{1, 1}, {6, 6}, {2, 4}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, _ := New(engine.Setup{Seats: 2})
			for s := range engine.Seat(2) {
				g.Apply(engine.Input{Kind: engine.NeedCommit, Seat: s, Commitment: &engine.Commitment{Owner: s, Name: StrengthsName, Size: 8}})
			}
			for _, r := range tt.rolls {
				if _, err := g.Apply(rollInput(r[0], r[1])); err != nil {
					t.Fatal(err)
				}
			}
			s, piece, ok := g.Placing()
			if !ok || s != tt.first || piece != PieceCarrier {
				t.Fatalf("placing %v %v %v, want %v carrier", s, piece, ok, tt.first)
			}
			if g.First() != tt.first {
				t.Errorf("First() = %v", g.First())
			}
		})
	}
}

func TestPlacementAlternates(t *testing.T) {
	tg := newSetupGame(t)
	for i, p := range testLayout {
		s, piece, ok := tg.Game.Placing()
		if !ok || s != p.seat || piece != p.piece {
			t.Fatalf("placement %d: %v %v, want %v %v", i, s, piece, p.seat, p.piece)
		}
		tg.mustMove(p.seat, PlaceMove(p.piece, mustCell(t, p.cell), p.facing))
	}
	// The player who placed first plays first.
	if tg.Game.Active() != 0 || tg.Game.Step() != 2 {
		t.Errorf("active %v step %d", tg.Game.Active(), tg.Game.Step())
	}
}

func TestPlacementRules(t *testing.T) {
	type pl struct {
		seat   engine.Seat
		piece  Piece
		cell   string
		facing Dir
	}
	tests := []struct {
		name   string
		before []pl // placed first (must be legal)
		try    pl
		want   string // "" means legal
	}{
		{"carrier on own half", nil, pl{0, PieceCarrier, "D4", South}, ""},
		{"carrier on the enemy half", nil, pl{0, PieceCarrier, "D12", South}, "not on your half"},
		{"carrier straddling the middle", nil, pl{0, PieceCarrier, "D10", North}, "not on your half"},
		{"carrier diagonal", nil, pl{0, PieceCarrier, "D4", SouthEast}, "along a row or column"},
		{"carrier off the board", nil, pl{0, PieceCarrier, "B4", East}, "off the board"},
		{"carrier launch space off the board", nil, pl{0, PieceCarrier, "D1", North}, "no launch space"},
		{"carrier along the back edge", nil, pl{0, PieceCarrier, "E1", East}, ""},
		{"carrier not surrounded by water", []pl{{0, PieceCarrier, "D8", South}}, pl{1, PieceCarrier, "D9", North}, "surrounded by open water"},
		{"carrier one space of water apart", []pl{{0, PieceCarrier, "D8", South}}, pl{1, PieceCarrier, "E10", North}, ""},
		{"destroyer two spaces from the carrier", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North}},
			pl{0, PieceDestroyer, "F4", South}, ""},
		{"destroyer stern two spaces away", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North}},
			pl{0, PieceDestroyer, "F5", South}, ""},
		{"destroyer diagonal", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North}},
			pl{0, PieceDestroyer, "G7", SouthEast}, ""},
		{"destroyer three spaces away", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North}},
			pl{0, PieceDestroyer, "G4", South}, "exactly 2 spaces"},
		{"destroyer next to the carrier", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North}},
			pl{0, PieceDestroyer, "E4", South}, "exactly 2 spaces"},
		{"destroyer off its half", []pl{{0, PieceCarrier, "D7", South}, {1, PieceCarrier, "D13", North}},
			pl{0, PieceDestroyer, "D10", South}, "not on your half"},
		{"shallow on own half", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North},
			{0, PieceDestroyer, "F4", South}, {1, PieceDestroyer, "F13", North}, {0, PieceDestroyer, "B6", South}, {1, PieceDestroyer, "B11", North}},
			pl{0, PieceShallow, "J2", North}, ""},
		{"shallow on the enemy half", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North},
			{0, PieceDestroyer, "F4", South}, {1, PieceDestroyer, "F13", North}, {0, PieceDestroyer, "B6", South}, {1, PieceDestroyer, "B11", North}},
			pl{0, PieceShallow, "J8", North}, "not on your half"},
		{"shallow over the launch space", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North},
			{0, PieceDestroyer, "F4", South}, {1, PieceDestroyer, "F13", North}, {0, PieceDestroyer, "B6", South}, {1, PieceDestroyer, "B11", North}},
			pl{0, PieceShallow, "C5", North}, "launch space"},
		{"shallow over a ship", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North},
			{0, PieceDestroyer, "F4", South}, {1, PieceDestroyer, "F13", North}, {0, PieceDestroyer, "B6", South}, {1, PieceDestroyer, "B11", North}},
			pl{0, PieceShallow, "E3", North}, "not open water"},
		{"shallow off the board", []pl{{0, PieceCarrier, "D4", South}, {1, PieceCarrier, "D13", North},
			{0, PieceDestroyer, "F4", South}, {1, PieceDestroyer, "F13", North}, {0, PieceDestroyer, "B6", South}, {1, PieceDestroyer, "B11", North}},
			pl{0, PieceShallow, "L2", North}, "off the board"},
		{"wrong piece", nil, pl{0, PieceShallow, "J2", North}, "place your carrier"},
		{"wrong seat", nil, pl{1, PieceCarrier, "D13", North}, "but seat 0 is to move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newSetupGame(t)
			for _, p := range tt.before {
				tg.mustMove(p.seat, PlaceMove(p.piece, mustCell(t, p.cell), p.facing))
			}
			m := PlaceMove(tt.try.piece, mustCell(t, tt.try.cell), tt.try.facing)
			if tt.want == "" {
				tg.mustMove(tt.try.seat, m)
				return
			}
			tg.rejectsMove(tt.try.seat, m, tt.want)
		})
	}
}

// Every carrier placement leaves room for both destroyers, so placement can
// never get stuck (checked on an empty board, for seat 0; seat 1 mirrors it).
func TestEveryCarrierLeavesRoomForDestroyers(t *testing.T) {
	tg := newSetupGame(t)
	base := tg.Game.clone()
	for _, m := range base.placementOptions(0, PieceCarrier) {
		g := base.clone()
		g.place(0, PieceCarrier, *m.Cell, *m.Facing)
		opts := g.placementOptions(0, PieceDestroyer)
		ok := false
		for _, d := range opts {
			g2 := g.clone()
			g2.place(0, PieceDestroyer, *d.Cell, *d.Facing)
			if len(g2.placementOptions(0, PieceDestroyer)) > 0 {
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("carrier at %s heading %s leaves no room for two destroyers", *m.Cell, *m.Facing)
		}
	}
}

func TestPlacementOptionsAreLegal(t *testing.T) {
	tg := newSetupGame(t)
	for _, p := range testLayout {
		opts := tg.Game.PlacementOptions()
		if len(opts) == 0 {
			t.Fatalf("no options for %v %v", p.seat, p.piece)
		}
		for _, m := range opts[:min(len(opts), 25)] {
			c := tg.Game.clone()
			if _, err := c.Apply(tg.moveInput(p.seat, m)); err != nil {
				t.Fatalf("option %s refused: %v", m.Encode(), err)
			}
		}
		tg.mustMove(p.seat, PlaceMove(p.piece, mustCell(t, p.cell), p.facing))
	}
}

package cheat

import (
	"context"
	"encoding/json"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/ubuild"
	"github.com/salvo-game/salvo/fairness"
)

func init() {
	register("ubuild",
		Kind{"miss-on-hit", "answers miss to a shot that hit", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InMove}, alter: alterAnswer(func(r *ubuild.ShotReport) bool {
				if r.Result == "miss" {
					return false
				}
				r.Result, r.Ship = "miss", ""
				return true
			})}, nil
		}},
		Kind{"wrong-ship", "names the wrong ship in a hit", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InMove}, alter: alterAnswer(func(r *ubuild.ShotReport) bool {
				if r.Result == "miss" {
					return false
				}
				s, _ := ubuild.ShipByKey(r.Ship)
				r.Ship = ubuild.Ship((int(s) + 1) % ubuild.NumShips).Key()
				return true
			})}, nil
		}},
		Kind{"extra-shots", "fires one shot more than the ship has weapons", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InMove}, alter: extraShot}, nil
		}},
		Kind{"illegal-layout", "hides a bent battleship and reveals it at the end", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, func(a engine.Agent) engine.Agent { return bentLayout{a} }
		}},
	)
}

// alterAnswer changes the first shot report of an answer that change
// accepts; the openings stay honest, so the lie contradicts them.
func alterAnswer(change func(*ubuild.ShotReport) bool) func(*fairness.Match, *fairness.Secrets, fairness.Step, *fairness.WireInput) bool {
	return func(_ *fairness.Match, _ *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
		if !st.Need.Auto {
			return false
		}
		var a ubuild.Answer
		if json.Unmarshal(in.Move, &a) != nil {
			return false
		}
		for i := range a.Results {
			if change(&a.Results[i]) {
				b, err := engine.EncodeMove(a)
				if err != nil {
					return false
				}
				in.Move = b
				return true
			}
		}
		return false
	}
}

// extraShot tops a volley up to one shot more than the firing ship has
// weapons left, so the volley breaks the rules whatever the bot chose.
func extraShot(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	if st.Need.Auto {
		return false
	}
	g, ok := m.Game().(*ubuild.Game)
	if !ok {
		return false
	}
	ship, shots, err := ubuild.DecodeFire(in.Move)
	if err != nil {
		return false
	}
	allowed, err := g.ShotsAllowed(st.Seat, ship, sec)
	if err != nil {
		return false
	}
	called := map[ubuild.Cell]bool{}
	for _, c := range shots {
		called[c] = true
	}
	for _, c := range g.Targets(st.Seat) {
		if len(shots) > allowed {
			break
		}
		if !called[c] {
			shots = append(shots, c)
		}
	}
	if len(shots) <= allowed {
		return false // not enough cells left to break the rule
	}
	b, err := ubuild.EncodeFire(ship, shots)
	if err != nil {
		return false
	}
	in.Move = b
	return true
}

// bentLayout commits a fleet whose battleship bends at a right angle.
type bentLayout struct{ engine.Agent }

func (b bentLayout) Immediate() bool { return true }

func (b bentLayout) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	if n.Kind != engine.NeedCommit || n.Name != ubuild.GridName {
		return b.Agent.Decide(ctx, g, seat, sec, n)
	}
	// Rows A, C, E, G and I hold one ship each, left-aligned; then the
	// battleship's last cell moves from A-5 to B-4: an L shape.
	var cells [ubuild.NumCells]byte
	for s := 0; s < ubuild.NumShips; s++ {
		for c := 0; c < ubuild.Ship(s).Plate(); c++ {
			cells[ubuild.CellAt(2*s, c)] = byte(s + 1)
		}
	}
	cells[ubuild.CellAt(0, 4)] = 0
	cells[ubuild.CellAt(1, 3)] = 1
	leaves := make([][]byte, len(cells))
	for i, v := range cells {
		leaves[i] = []byte{v}
	}
	return engine.Decision{Leaves: leaves}, nil
}

package cheat

import (
	"context"
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/fairness"
)

// The cheats of Mission Command Sea (issue 4), by seat 1, and what catches
// them at the message that carries them:
//
//   - strength-differs: a fighter's strength opened (in a dogfight, or at
//     the final reveal) as a 4 when another value was committed; the
//     referee checks the opening against the commitment.
//   - harpoon-was-sidewinder: a missile committed as a Sidewinder launched as
//     a Harpoon; the launch opens the missile leaf and the engine refuses
//     anything but a Harpoon.
//   - illegal-path: a scramble flight longer than the die it uses; the
//     engine checks every path.
//   - forged-own-roll: a dice preimage that is not the next link of the
//     seat's chain, for a roll the seat itself acts on (its scramble, fire
//     or dogfight dice); the referee checks each preimage against the chain
//     (the generic forged-roll does the same at the match's first roll).
//   - destroyer-fires-twice: a destroyer that fired in this step fires again;
//     the engine tracks which destroyers have acted.
func init() {
	register("sea",
		Kind{"strength-differs", "opens a fighter's strength as a 4 when it committed another value", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InOpen}, alter: strengthDiffers}, nil
		}},
		Kind{"harpoon-was-sidewinder", "loads Sidewinders, then launches one as a Harpoon", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(sidewinderAsHarpoon)
		}},
		Kind{"illegal-path", "flies a fighter farther than its scramble die allows", func() (Cheat, func(engine.Agent) engine.Agent) {
			return agentCheat{}, steering(illegalPath)
		}},
		Kind{"forged-own-roll", "reveals a forged dice preimage for a roll it acts on itself", func() (Cheat, func(engine.Agent) engine.Agent) {
			return &inputCheat{kinds: []fairness.InputKind{fairness.InShare}, alter: forgedOwnRoll}, nil
		}},
		Kind{"destroyer-fires-twice", "fires a destroyer a second time in the same step", func() (Cheat, func(engine.Agent) engine.Agent) {
			c := &doubleFire{}
			return agentCheat{}, steering(c.decide)
		}},
	)
}

// strongest returns the strength leaf a cheater would rather show: a 4, or a
// 3 for a fighter that is a 4 already.
func strongest(v []byte) fairness.Hex {
	if s, err := sea.DecodeStrength(v); err == nil && s == sea.MaxStrength {
		return sea.EncodeStrength(sea.MaxStrength - 1)
	}
	return sea.EncodeStrength(sea.MaxStrength)
}

// strengthDiffers changes the first strength it opens, whether a single
// opening in a dogfight or a whole-vector opening at the final reveal.
func strengthDiffers(m *fairness.Match, _ *fairness.Secrets, _ fairness.Step, in *fairness.WireInput) bool {
	if _, ok := m.Game().(*sea.Game); !ok {
		return false
	}
	for i := range in.Open {
		if in.Open[i].Slot.Name == sea.StrengthsName {
			in.Open[i].Value = strongest(in.Open[i].Value)
			return true
		}
	}
	for _, f := range in.Full {
		if f.Name == sea.StrengthsName && len(f.Values) > 0 {
			f.Values[0] = strongest(f.Values[0])
			return true
		}
	}
	return false
}

// sidewinderAsHarpoon loads every fighter that takes off with a Sidewinder
// (a legal choice), then launches one of them as a Harpoon.
func sidewinderAsHarpoon(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	sg, ok := g.(*sea.Game)
	switch {
	case !ok:
	case n.Kind == engine.NeedCommit && strings.HasPrefix(n.Name, strings.TrimSuffix(sea.LoadName(0), "0")):
		return engine.Decision{Leaves: [][]byte{sea.EncodeMissile(sea.Sidewinder)}}, nil
	case n.Kind == engine.NeedMove && n.Name == sea.NeedLaunch:
		for _, f := range sg.Fighters(seat, sec) {
			if f.State == sea.InFlight && f.Armed && f.Missile == sea.Sidewinder {
				return moveDecision(sea.LaunchMove(f.Index))
			}
		}
	}
	return inner.Decide(ctx, g, seat, sec, n)
}

// illegalPath stretches the first flight of a scramble one space past its
// die (back and forth between neighbouring spaces if need be).
func illegalPath(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	d, err := inner.Decide(ctx, g, seat, sec, n)
	sg, ok := g.(*sea.Game)
	if err != nil || !ok || n.Kind != engine.NeedMove || n.Name != sea.NeedScramble {
		return d, err
	}
	m, err := sea.DecodeMove(d.Move)
	dice := sg.ScrambleRoll()
	if err != nil || m.Kind != sea.KindScramble || len(m.Flights) == 0 || m.Flights[0].Die >= len(dice) {
		return d, nil
	}
	fl := &m.Flights[0]
	for len(fl.Path) <= dice[fl.Die] {
		fl.Path = append(fl.Path, sea.Neighbors(fl.Path[len(fl.Path)-1])[0])
	}
	return moveDecision(m)
}

// forgedOwnRoll forges the seat's preimage for the first roll it acts on.
func forgedOwnRoll(m *fairness.Match, sec *fairness.Secrets, st fairness.Step, in *fairness.WireInput) bool {
	if st.Need.Seat != st.Seat {
		return false
	}
	return forgedRoll(m, sec, st, in)
}

// doubleFire fires a destroyer when it has a target and the step will ask
// the seat again (another destroyer can still act), and then fires it once
// more. Bots may go a whole match without that chance, so it also places
// the seat's destroyers where they have room and targets come (and its
// shallows away from them), and holds them still rather than let them be
// boxed in.
type doubleFire struct {
	fired      bool
	turn, step int
	destroyer  int
	target     sea.Target
}

func (c *doubleFire) decide(ctx context.Context, inner engine.Agent, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	sg, ok := g.(*sea.Game)
	if !ok || n.Kind != engine.NeedMove {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	if _, piece, ok := sg.Placing(); ok && piece != sea.PieceCarrier {
		place := openWater
		if piece == sea.PieceShallow {
			place = clearWater
		}
		if m, ok := place(sg, seat); ok {
			return moveDecision(m)
		}
	}
	if n.Name != sea.NeedDestroyers && n.Name != sea.NeedDefense {
		return inner.Decide(ctx, g, seat, sec, n)
	}
	if c.fired && c.turn == sg.Turn() && c.step == sg.Step() {
		return moveDecision(sea.FireMove(c.destroyer, c.target))
	}
	// The step asks again only while another destroyer can still act:
	// move or fire in step 3, fire in step 4.
	step3 := n.Name == sea.NeedDestroyers
	free := func(v sea.DestroyerView) bool { return v.Afloat && (step3 && !v.Acted || !step3 && !v.Fired) }
	canAct := func(v sea.DestroyerView) bool {
		return free(v) && (len(sg.FireTargets(seat, v.Index)) > 0 || step3 && len(sg.DestroyerMoves(seat, v.Index)) > 0)
	}
	views := sg.Destroyers(seat)
	for _, v := range views {
		ts := sg.FireTargets(seat, v.Index)
		if !free(v) || len(ts) == 0 {
			continue
		}
		if slices.ContainsFunc(views, func(o sea.DestroyerView) bool { return o.Index != v.Index && canAct(o) }) {
			c.fired, c.turn, c.step, c.destroyer, c.target = true, sg.Turn(), sg.Step(), v.Index, ts[0].Target
			return moveDecision(sea.FireMove(v.Index, ts[0].Target))
		}
	}
	// Hold the formation until a shot comes that can be repeated.
	return moveDecision(sea.DoneMove())
}

// openWater places the seat's destroyers in the middle of its half, one a
// quarter of the way across the board and the other three quarters, facing
// the enemy: room to move without hemming each other in, out of reach of
// the enemy's destroyers at first, and in range of the fighters that come
// for its carrier.
func openWater(g *sea.Game, seat engine.Seat) (sea.Move, bool) {
	row, ahead := sea.HalfRows+sea.HalfRows/2, sea.North
	if seat == 0 {
		row, ahead = sea.HalfRows/2-1, sea.South
	}
	col := sea.Cols / 4
	for _, d := range g.Destroyers(seat) {
		if d.Placed {
			col = sea.Cols - 1 - sea.Cols/4
		}
	}
	spot := sea.At(col, row)
	carrier := g.Carrier(seat)
	deck := append([]sea.Cell{carrier.Launch}, carrier.Cells...)
	score := func(m sea.Move) int {
		d := sea.Dist(*m.Cell, spot)
		if m.Facing == nil || *m.Facing != ahead {
			d += sea.Rows
		}
		if sea.MinDist([]sea.Cell{*m.Cell}, deck) < clearance {
			d += sea.Rows // the carrier or its fighters taking off would bar the way
		}
		return d
	}
	return bestPlacement(g.PlacementOptions(), score)
}

// clearance is how far openWater keeps a destroyer from its own carrier.
const clearance = 4

// clearWater places the seat's shallows as far as it can from its
// destroyers, so that they never box them in.
func clearWater(g *sea.Game, seat engine.Seat) (sea.Move, bool) {
	var ships []sea.Cell
	for _, d := range g.Destroyers(seat) {
		if d.Placed {
			ships = append(ships, d.Bow, d.Stern)
		}
	}
	if len(ships) == 0 {
		return sea.Move{}, false
	}
	return bestPlacement(g.PlacementOptions(), func(m sea.Move) int { return -sea.MinDist([]sea.Cell{*m.Cell}, ships) })
}

// bestPlacement returns the placement with the lowest score.
func bestPlacement(opts []sea.Move, score func(sea.Move) int) (sea.Move, bool) {
	best, bestScore := -1, 0
	for i, m := range opts {
		if m.Cell == nil {
			continue
		}
		if sc := score(m); best < 0 || sc < bestScore {
			best, bestScore = i, sc
		}
	}
	if best < 0 {
		return sea.Move{}, false
	}
	return opts[best], true
}

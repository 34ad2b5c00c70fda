package sea

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// Rules names the rules version recorded in every transcript.
const Rules = "sea/1"

// VariantStandard is the only variant: the rulebook with DATA.md's values.
const VariantStandard = "standard"

// Spec describes Mission Command Sea to the rest of the program.
var Spec = engine.Spec{
	Name:     "sea",
	Title:    "Mission Command Sea",
	Rules:    Rules,
	Variants: []string{VariantStandard},
	MinSeats: 2,
	MaxSeats: 2,
	New:      engine.NewFunc(New),
}

// New starts a match: both seats commit their fighter strengths, then roll
// for who places first.
func New(s engine.Setup) (*Game, error) {
	if s.Seats != 2 {
		return nil, fmt.Errorf("sea: %d seats: %w", s.Seats, engine.Illegal("Mission Command Sea is for exactly 2 players"))
	}
	if s.Variant != "" && s.Variant != VariantStandard {
		return nil, fmt.Errorf("sea: %w", engine.Illegal("unknown variant %q", s.Variant))
	}
	g := &Game{phase: phCommit, commitSeat: 0, first: engine.NoSeat, active: engine.NoSeat, revealSeat: engine.NoSeat, nextID: 1}
	for i := range g.sides {
		sd := &g.sides[i]
		for j := range sd.shallows {
			sd.shallows[j] = NoCell
		}
		for j := range sd.fighters {
			sd.fighters[j] = fighter{state: OnDeck, cell: NoCell, load: -1}
		}
		sd.carrier.bow = NoCell
		for j := range sd.destroyers {
			sd.destroyers[j].bow, sd.destroyers[j].stern = NoCell, NoCell
		}
	}
	return g, nil
}

// Clone returns an independent copy of the match.
func (g *Game) Clone() engine.Game { return g.clone() }

// Outcome reports the result once the final reveal is over.
func (g *Game) Outcome() engine.Outcome {
	if g.phase != phOver {
		return engine.Outcome{}
	}
	o := g.outcome
	o.Winners = append([]engine.Seat(nil), g.outcome.Winners...)
	return o
}

var bothSeats = []engine.Seat{0, 1}

func rollNeed(name string, count int, seat engine.Seat, prompt string) engine.Need {
	return engine.Need{Kind: engine.NeedRandom, Name: name, Count: count, Bound: DieFaces,
		Seats: append([]engine.Seat(nil), bothSeats...), Seat: seat, Prompt: prompt}
}

func moveNeed(seat engine.Seat, name, prompt string) engine.Need {
	return engine.Need{Kind: engine.NeedMove, Seat: seat, Name: name, Prompt: prompt}
}

// Names of the NeedMove needs (Need.Name), telling an agent which decision is
// awaited.
const (
	NeedPlace       = "place"
	NeedHarpoonPick = "harpoon"
	NeedHarpoonPath = "harpoon/path"
	NeedReturn      = "return"
	NeedScramble    = "scramble"
	NeedDestroyers  = "destroyers"
	NeedDefense     = "defense"
	NeedDamage      = "damage"
	NeedDefender    = "dogfight/defender"
	NeedAttacker    = "dogfight/attacker"
	NeedSidewinder  = "sidewinder"
	NeedLaunch      = "launch"
	NeedLaunchPath  = "launch/path"
)

// Next reports what the match needs next.
func (g *Game) Next() engine.Need {
	switch g.phase {
	case phCommit:
		return engine.Need{Kind: engine.NeedCommit, Seat: g.commitSeat, Name: StrengthsName, Size: FightersPerSide,
			Prompt: "commit your fighters' strengths"}
	case phOrder:
		return rollNeed("order", 2, engine.NoSeat, "each player rolls a die; the lower roll places first")
	case phPlace:
		seat, piece := g.placer()
		return moveNeed(seat, NeedPlace, fmt.Sprintf("place your %s", piece))
	case phHarpoonPick:
		return moveNeed(g.active, NeedHarpoonPick, "choose the Harpoon to move")
	case phHarpoonRoll:
		return rollNeed("harpoon", 1, g.active, "roll for the Harpoon")
	case phHarpoonPath:
		return moveNeed(g.active, NeedHarpoonPath, fmt.Sprintf("move the Harpoon up to %d spaces", g.curRoll))
	case phReturn:
		return moveNeed(g.active, NeedReturn, "return fighters to the carrier (one fewer die each)")
	case phScrambleRoll:
		return rollNeed("scramble", len(g.dice), g.active, "roll to scramble fighters")
	case phScramble:
		return moveNeed(g.active, NeedScramble, fmt.Sprintf("scramble fighters with %v", g.dice))
	case phLoad:
		return engine.Need{Kind: engine.NeedCommit, Seat: g.active, Name: LoadName(len(g.loads) + 1), Size: 1,
			Prompt: fmt.Sprintf("load a missile on fighter %d", g.loadQueue[0])}
	case phDestroyer:
		return moveNeed(g.active, NeedDestroyers, "move or fire your destroyers")
	case phFireRoll:
		name := "fire"
		if g.step == 4 {
			name = "defense"
		}
		return rollNeed(name, 1, g.fire.seat, fmt.Sprintf("destroyer fires: needs more than %d", g.fire.dist))
	case phDefense:
		return moveNeed(other(g.active), NeedDefense, "defensive fire")
	case phDamageRoll:
		return rollNeed("damage", 1, g.damage.by, "roll for planes lost from the struck carrier's deck")
	case phDamageChoose:
		return moveNeed(g.damage.owner, NeedDamage, fmt.Sprintf("remove %d fighters from your deck", g.damage.count))
	case phDefend:
		return moveNeed(other(g.active), NeedDefender, "choose the defending fighter")
	case phOpenDefender:
		s := other(g.active)
		return engine.Need{Kind: engine.NeedOpen, Seat: s, Name: "strength", Open: []engine.Slot{StrengthSlot(s, g.df.fighter[0])},
			Prompt: "reveal the defender's strength"}
	case phAttack:
		return moveNeed(g.active, NeedAttacker, "choose the attacking fighter")
	case phOpenAttacker:
		return engine.Need{Kind: engine.NeedOpen, Seat: g.active, Name: "strength", Open: []engine.Slot{StrengthSlot(g.active, g.df.fighter[1])},
			Prompt: "reveal the attacker's strength"}
	case phDogfightRoll:
		s := g.dfSeat(g.df.side)
		return rollNeed("dogfight", g.dfStrength(g.df.side), s, "dogfight roll")
	case phSidewinder:
		return moveNeed(g.dfSeat(g.df.side), NeedSidewinder, "launch your Sidewinder?")
	case phReroll:
		return rollNeed("reroll", 1, g.dfSeat(g.df.side), "Sidewinder re-roll")
	case phLaunch:
		return moveNeed(g.active, NeedLaunch, "launch Harpoons")
	case phLaunchRoll:
		return rollNeed("launch", 1, g.active, "roll for the Harpoon")
	case phLaunchPath:
		return moveNeed(g.active, NeedLaunchPath, fmt.Sprintf("move the Harpoon up to %d spaces", g.curRoll))
	case phReveal:
		return engine.Need{Kind: engine.NeedOpen, Seat: g.revealSeat, Name: "reveal", Open: g.unopened(g.revealSeat),
			Prompt: "reveal every remaining secret"}
	}
	return engine.Need{Kind: engine.NeedNone, Seat: engine.NoSeat}
}

// placer returns who places next and what.
func (g *Game) placer() (engine.Seat, Piece) {
	seat := g.first
	if g.placements%2 == 1 {
		seat = other(g.first)
	}
	return seat, PlacementOrder[g.placements/2]
}

func (g *Game) dfSeat(side int) engine.Seat {
	if side == 0 {
		return other(g.active)
	}
	return g.active
}

func (g *Game) dfFighter(side int) *fighter {
	return &g.sides[g.dfSeat(side)].fighters[g.df.fighter[side]]
}

func (g *Game) dfStrength(side int) int { return g.dfFighter(side).strength }

// unopened lists every slot of seat that has not been opened yet: unknown
// strengths, then unopened missiles in commitment order.
func (g *Game) unopened(seat engine.Seat) []engine.Slot {
	var out []engine.Slot
	for i, f := range g.sides[seat].fighters {
		if f.strength == 0 {
			out = append(out, StrengthSlot(seat, i))
		}
	}
	for _, l := range g.loads {
		if l.owner == seat && !l.opened {
			out = append(out, engine.Slot{Owner: seat, Name: l.name, Index: 0})
		}
	}
	return out
}

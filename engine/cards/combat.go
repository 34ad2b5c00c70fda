package cards

import (
	"github.com/salvo-game/salvo/engine"
)

// powerOn reports whether ship k of seat s uses its power: standard rules,
// revealed and not yet sunk.
func (g *Game) powerOn(s engine.Seat, k Ship) bool {
	if g.variant != standard || !k.Valid() {
		return false
	}
	sh := &g.players[s].ships[k]
	return sh.revealed && !sh.sunk
}

// pegValue is what a peg card of seat owner counts as in play: a white peg 1,
// a red peg its pegs plus one while the owner's Battleship is revealed and
// afloat.
func (g *Game) pegValue(owner engine.Seat, f Face) int {
	if f.IsRed() && g.powerOn(owner, Battleship) {
		return f.Pegs() + 1
	}
	return f.Pegs()
}

func (g *Game) sumPegs(owner engine.Seat, fs []Face) int {
	n := 0
	for _, f := range fs {
		n += g.pegValue(owner, f)
	}
	return n
}

// Damage returns the hits ship k of seat s has taken (the pegs on the ship
// itself, not on its shield), as the powers in play count them now.
func (g *Game) Damage(s engine.Seat, k Ship) int {
	if !validSeat(s) || !k.Valid() {
		return 0
	}
	return g.sumPegs(other(s), g.players[s].ships[k].pegs)
}

// ShieldDamage returns the pegs on the shield of ship k of seat s.
func (g *Game) ShieldDamage(s engine.Seat, k Ship) int {
	if !validSeat(s) || !k.Valid() {
		return 0
	}
	return g.sumPegs(other(s), g.players[s].ships[k].shieldPegs)
}

// whiteDamages reports whether a white peg of attacker a damages ship k of
// the defender: always on a Submarine whose power is on, and on any ship
// while a's Destroyer is revealed and afloat.
func (g *Game) whiteDamages(a engine.Seat, k Ship) bool {
	if k == Submarine && g.powerOn(other(a), Submarine) {
		return true
	}
	return g.powerOn(a, Destroyer)
}

// hitShip lays attacker a's peg card f on the defender's revealed ship k, as
// the ship powers decide: a red peg on a Submarine is discarded, a peg on a
// shield damages only the shield, a white peg that cannot damage is
// discarded. The board is settled afterwards by the caller.
func (g *Game) hitShip(a engine.Seat, k Ship, f Face) []engine.Event {
	d := other(a)
	sh := &g.players[d].ships[k]
	switch {
	case f.IsRed() && k == Submarine && g.powerOn(d, Submarine):
		g.players[a].disc[f]++
		return []engine.Event{engine.Eventf(a, "wasted", "%s's %s does nothing to the Submarine and is discarded", a, f)}
	case f == White && !g.whiteDamages(a, k):
		g.players[a].disc[f]++
		return nil
	case sh.shield:
		sh.shieldPegs = append(sh.shieldPegs, f)
		return []engine.Event{engine.Eventf(d, "shield-hit", "%s's %s hits the shield on %s's %s", a, f, d, k.Title())}
	default:
		sh.pegs = append(sh.pegs, f)
		return []engine.Event{engine.Eventf(d, "hit", "%s's %s hits %s's %s", a, f, d, k.Title())}
	}
}

// settleBoard destroys every shield and sinks every ship whose damage has
// reached its strength, ends the powers of sunk ships, and repeats until
// nothing changes; then it decides the match if a fleet is gone.
func (g *Game) settleBoard() []engine.Event {
	var evs []engine.Event
	for changed := true; changed; {
		changed = false
		for s := engine.Seat(0); s < 2; s++ {
			a := other(s)
			for _, k := range Ships {
				sh := &g.players[s].ships[k]
				if !sh.revealed || sh.sunk {
					continue
				}
				if sh.shield && g.sumPegs(a, sh.shieldPegs) >= ShieldStrength {
					g.dropShield(s, k)
					evs = append(evs, engine.Eventf(s, "shield-destroyed", "the shield on %s's %s is destroyed", s, k.Title()))
					changed = true
				}
				if g.sumPegs(a, sh.pegs) >= k.Hits() {
					evs = append(evs, g.sink(s, k)...)
					changed = true
				}
			}
		}
	}
	if g.over {
		return evs
	}
	lost := [2]bool{g.fleetSunk(0), g.fleetSunk(1)}
	switch {
	case lost[0] && lost[1]:
		g.decide(g.turn, "both fleets sank at once; the player whose turn it was wins")
	case lost[0]:
		g.decide(1, "sank the whole enemy fleet")
	case lost[1]:
		g.decide(0, "sank the whole enemy fleet")
	}
	return evs
}

// dropShield discards the shield on ship k of seat s and the pegs on it.
func (g *Game) dropShield(s engine.Seat, k Ship) {
	sh := &g.players[s].ships[k]
	a := other(s)
	for _, f := range sh.shieldPegs {
		g.players[a].disc[f]++
	}
	sh.shieldPegs = nil
	sh.shield = false
	g.players[s].disc[ShieldCard]++
}

// sink takes ship k of seat s out of the game, discards every card on it, and
// ends its power: a sunk Destroyer takes its owner's white pegs in play (but
// those on a Submarine) to the discard pile.
func (g *Game) sink(s engine.Seat, k Ship) []engine.Event {
	sh := &g.players[s].ships[k]
	a := other(s)
	if sh.shield {
		g.dropShield(s, k)
	}
	for _, f := range sh.pegs {
		g.players[a].disc[f]++
	}
	sh.pegs = nil
	wasOn := g.powerOn(s, k)
	sh.sunk = true
	evs := []engine.Event{engine.Eventf(s, "sunk", "%s sank %s's %s", a, s, k.Title())}
	if k == Destroyer && wasOn {
		n := 0
		for _, t := range Ships {
			if t == Submarine {
				continue
			}
			ts := &g.players[a].ships[t]
			ts.pegs, n = g.dropWhites(s, ts.pegs, n)
			ts.shieldPegs, n = g.dropWhites(s, ts.shieldPegs, n)
		}
		if n > 0 {
			evs = append(evs, engine.Eventf(s, "whites-lost", "%s's Destroyer sank: %d white peg card(s) in play are discarded", s, n))
		}
	}
	return evs
}

// dropWhites removes the white pegs from fs into owner's discard pile.
func (g *Game) dropWhites(owner engine.Seat, fs []Face, n int) ([]Face, int) {
	out := fs[:0:0]
	for _, f := range fs {
		if f == White {
			g.players[owner].disc[White]++
			n++
			continue
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		out = nil
	}
	return out, n
}

func (g *Game) fleetSunk(s engine.Seat) bool {
	for _, k := range Ships {
		if !g.players[s].ships[k].sunk {
			return false
		}
	}
	return true
}

// decide ends play with a winner.
func (g *Game) decide(w engine.Seat, why string) {
	g.over, g.winner, g.reason = true, w, why
}

func validSeat(s engine.Seat) bool { return s == 0 || s == 1 }

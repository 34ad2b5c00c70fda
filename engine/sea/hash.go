package sea

import "github.com/salvo-game/salvo/engine"

// Hash is a digest of the whole public state, pending decisions included.
func (g *Game) Hash() engine.Digest {
	h := engine.NewHasher("salvo/sea/state/1")
	h.Int(int(g.phase)).Int(g.step).Int(g.turn).Int(int(g.active)).Int(int(g.first))
	h.Int(int(g.commitSeat)).Int(g.placements)
	for i := range g.sides {
		sd := &g.sides[i]
		h.Bool(sd.committed).Digest(sd.root).Int(sd.placed)
		c := sd.carrier
		h.Int(int(c.bow)).Int(int(c.facing)).Bool(c.placed).Bool(c.damaged).Bool(c.sunk)
		for _, d := range sd.destroyers {
			h.Int(int(d.bow)).Int(int(d.stern)).Bool(d.placed).Bool(d.alive).Bool(d.acted).Bool(d.fired)
		}
		for _, s := range sd.shallows {
			h.Int(int(s))
		}
		for _, f := range sd.fighters {
			h.Int(int(f.state)).Int(int(f.cell)).Int(f.strength).Int(f.load).Bool(f.returned)
		}
	}
	h.Int(len(g.harpoons))
	for _, hp := range g.harpoons {
		h.Int(hp.id).Int(int(hp.owner)).Int(int(hp.cell))
	}
	h.Int(g.nextID)
	h.Int(len(g.loads))
	for _, l := range g.loads {
		h.Int(int(l.owner)).String(l.name).Digest(l.root).Int(l.fighter).Bool(l.opened).Int(int(l.missile))
	}
	h.Int(len(g.rolls))
	for _, r := range g.rolls {
		h.Int(int(r.Seat)).String(r.Name).Ints(r.Dice...)
	}
	h.Ints(g.toMove...).Int(g.curHarpoon).Int(g.curRoll).Ints(g.dice...).Ints(g.loadQueue...)
	h.Int(int(g.fire.seat)).Int(g.fire.destroyer).String(g.fire.target.Kind).Int(g.fire.target.Index).Int(g.fire.dist)
	d := g.damage
	h.Int(int(d.owner)).Int(int(d.by)).Int(d.count).Int(d.resume).Bool(d.pending)
	for i := range 2 {
		h.Int(g.df.fighter[i]).Ints(g.df.dice[i]...).Int(g.df.bonus[i])
	}
	h.Int(g.df.side).Int(g.df.reroll).Int(g.launching).Int(int(g.revealSeat))
	h.Bool(g.decided).Bool(g.outcome.Draw).String(g.outcome.Reason)
	h.Int(len(g.outcome.Winners))
	for _, w := range g.outcome.Winners {
		h.Int(int(w))
	}
	return h.Sum()
}

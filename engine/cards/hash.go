package cards

import "github.com/salvo-game/salvo/engine"

// hashDomain separates this game's state digests from every other game's.
const hashDomain = "salvo/cards/state/1"

// Hash is a digest of the whole public state.
func (g *Game) Hash() engine.Digest {
	h := engine.NewHasher(hashDomain)
	h.Int(int(g.variant)).Int(int(g.step)).Int(int(g.seat))
	h.Int(int(g.first)).Int(int(g.turn)).Int(g.turns).Int(g.playsLeft)
	h.Bool(g.mustFrom != nil)
	hashRefs(h, g.mustFrom)
	h.Bool(g.reloaded).Bool(g.ptPending)
	h.Bool(g.flip != nil)
	if g.flip != nil {
		h.Int(int(g.flip.attacker)).Int(g.flip.pos).Int(int(g.flip.face)).Int(g.flip.leaf)
	}
	h.Int(int(g.draw.purpose)).Int(int(g.draw.seat)).Int(g.draw.left)
	hashRefs(h, g.draw.got)
	for i := range g.players {
		g.players[i].hash(h)
	}
	h.Bool(g.over).Int(int(g.winner)).Bool(g.isDraw).String(g.reason)
	return h.Sum()
}

func (p *player) hash(h *engine.Hasher) {
	c := &p.coords
	h.Bool(c.committed)
	for i := range GridSize {
		h.Bool(c.opened[i]).Bool(c.placed[i]).Int(int(c.value[i]))
	}
	h.Ints(c.seen[:]...)
	h.Ints(p.grid[:]...)
	for k := Carrier; k < numShips; k++ {
		s := &p.ships[k]
		h.Bool(s.revealed).Bool(s.sunk).Int(s.pos).Bool(s.shield)
		hashFaces(h, s.pegs)
		hashFaces(h, s.shieldPegs)
	}
	h.Int(len(p.decks))
	for _, d := range p.decks {
		h.Ints(d.expect[:]...).Ints(d.seen[:]...)
		h.Int(len(d.drawn))
		for i := range d.drawn {
			h.Bool(d.drawn[i]).Bool(d.opened[i])
		}
	}
	hashRefs(h, p.hand)
	h.Ints(p.disc[:]...)
}

func hashRefs(h *engine.Hasher, rs []CardRef) {
	h.Int(len(rs))
	for _, r := range rs {
		h.Int(r.Deck).Int(r.Leaf)
	}
}

func hashFaces(h *engine.Hasher, fs []Face) {
	engine.Each(h.Int(len(fs)), fs)
}

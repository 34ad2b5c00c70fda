package fairness

import (
	"github.com/salvo-game/salvo/engine"
)

// addPreshares closes the message the local seat is about to seal with its
// pre-shares (preshare.go): as many of its next dice links as the rolls it
// expects before anyone decides anything again, when the match, after the
// message, waits for the other seat's step that decides nothing.
//
// The number is a guess, and a wrong one costs no fairness: a pre-share
// that meets a decision first is void (its link is used up, nobody's roll
// takes it), and a roll with no pre-share pending takes the seat's share
// in a message as before. The guess steps a copy of the game across the
// rolls ahead with made-up values (how many rolls follow in a row seldom
// depends on them: a dogfight's two, the set-up's first player and deals)
// and, when it stops at the other seat's opening, counts one roll more
// (a card game's flip is opened and a draw follows; an ocean battle is
// opened and the winner draws). A peer with Hooks (a test's cheat) sends
// none, as it sends no members.
func (r *Referee) addPreshares() {
	seat := r.cfg.Seat
	if len(r.staged) == 0 || r.cfg.Hooks != nil || r.m.Preshared(seat) > 0 || !r.m.PreshareOpen(seat) {
		return
	}
	for range expectedRolls(r.m, seat) {
		pos, _ := r.m.preshareFrom(seat)
		link, next, err := r.chain.Share(pos)
		if err != nil {
			r.log.Debug("no pre-share", "err", err)
			return
		}
		in := WireInput{T: InPreshare, Link: hexDigest(link)}
		if next != nil {
			in.Next = hexDigest(*next)
		}
		if _, err := r.m.Stage(seat, in); err != nil {
			// An old chain that ends here, or the rule of continued
			// chains: the roll takes a share in a message, as before.
			r.log.Debug("no pre-share", "err", err)
			return
		}
		r.staged = append(r.staged, in)
	}
}

// expectedRolls guesses how many rolls the match will take seat's share of
// before the next decision, from where it stands (see addPreshares), at
// most maxPreshares.
func expectedRolls(m *Match, seat engine.Seat) int {
	g, n := m.Game().Clone(), 0
	for first := true; n < maxPreshares; first = false {
		need := g.Next()
		switch {
		case need.Kind == engine.NeedRandom:
			if !first || !m.contributed(seat) {
				n++
			}
			if _, err := g.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: make([]int, need.Count)}); err != nil {
				return n
			}
		case need.Kind == engine.NeedOpen && need.Seat != seat:
			return min(n+1, maxPreshares)
		default:
			return n
		}
	}
	return n
}

// contributed reports whether seat's share of the roll being gathered is in.
func (m *Match) contributed(seat engine.Seat) bool {
	j := m.gather
	if j == nil || j.need.Kind != engine.NeedRandom {
		return false
	}
	_, ok := j.shares[seat]
	return ok
}

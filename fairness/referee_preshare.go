package fairness

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// addPreshares closes the message the local seat is about to seal with its
// pre-shares (preshare.go): as many of its next dice links as the rolls it
// expects before anyone decides anything again, less those pending, when
// the match, after the message, waits for the other seat's step that
// decides nothing.
//
// The number is a guess, and a wrong one costs no fairness: a pre-share
// that meets a decision first is void (its link is used up, nobody's roll
// takes it), and a roll with no pre-share pending takes the seat's share
// in a message as before. The guess steps copies of the game across the
// rolls ahead with made-up values, the lowest and the highest of each
// roll, and keeps the longer run (a dogfight's two rolls, the set-up's
// first player and deals, a hit's damage roll after a fire roll), and
// when it stops at the other seat's opening, counts rollsPastOpening rolls
// more (a card game's flip is opened and a draw follows; an ocean battle is
// opened and the winner draws; a Sea dogfight opens both strengths, then
// both fighters roll, and a Harpoon may roll as the next turn starts). A peer with Hooks (a test's cheat) sends
// none, as it sends no members.
func (r *Referee) addPreshares() {
	seat := r.cfg.Seat
	if len(r.staged) == 0 || r.cfg.Hooks != nil || !r.m.PreshareOpen(seat) {
		return
	}
	// Pending pre-shares fill the first of the rolls expected: only the
	// rest are sent (a fire roll's pre-share left over when no hit came
	// goes into the dogfight's first roll, and the second needs one more).
	for range expectedRolls(r.m, seat) - r.m.Preshared(seat) {
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
	return rollsAhead(m.Game().Clone(), seat, m.contributed(seat), maxPreshares)
}

// rollsAhead counts the rolls that follow in g (at most up to): each is
// tried with its lowest and its highest values, and the longer run counts
// (a hit's damage roll follows a fire roll only on a hit; a pre-share too
// many is only void). in says seat's share of the first roll is in.
func rollsAhead(g engine.Game, seat engine.Seat, in bool, up int) int {
	if up <= 0 {
		return 0
	}
	need := g.Next()
	switch {
	case need.Kind == engine.NeedOpen && need.Seat != seat:
		return min(up, rollsPastOpening)
	case need.Kind != engine.NeedRandom:
		return 0
	}
	n := 0
	if !in {
		n, up = 1, up-1
	}
	best := 0
	for _, v := range []int{0, need.Bound - 1} {
		c := g.Clone()
		if _, err := c.Apply(engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: slices.Repeat([]int{v}, need.Count)}); err == nil {
			best = max(best, rollsAhead(c, seat, false, up))
		}
	}
	return n + best
}

// rollsPastOpening is how many rolls the guess counts past the other
// seat's opening, which a copy of the game cannot step across (the value is
// the other seat's secret): a card game's flip is opened and one draw
// follows, but a Sea dogfight opens both fighters' strengths and then the
// defender and the attacker roll, one after the other when the defender's
// fighter carries no Sidewinder, and when the dogfight ends the turn the
// next player's Harpoon in the water rolls too. With one, the seat that
// opened first sent its share of the later rolls in flights of their own;
// a pre-share too many is only void.
const rollsPastOpening = 3

// contributed reports whether seat's share of the roll being gathered is in.
func (m *Match) contributed(seat engine.Seat) bool {
	j := m.gather
	if j == nil || j.need.Kind != engine.NeedRandom {
		return false
	}
	_, ok := j.shares[seat]
	return ok
}

// memberPreshares returns the pre-shares that close the seat's member at
// place seq, its share being share, when that place is the last of a group
// of shares of one roll that some of its values follow with another roll
// of the same seats (runs.go's pre-shares at a group's last share): as
// many as rollsAhead expects after the roll and safePreshares allows,
// stopping before a chain's last link. It reads only the base's game (the
// game asks the roll until the member's share completes it) and the seat's
// chain, so a referee that resumes signs the same member again.
func (r *Referee) memberPreshares(seq uint64, st Step, share WireInput) []WireInput {
	m, seat := r.m, r.cfg.Seat
	g := m.group
	if r.cfg.Hooks != nil || m.oneStep || len(m.keys) != 2 || st.Kind != InShare || share.Next != "" || m.Preshared(seat) > 0 ||
		g == nil || seq != g.seq+uint64(len(g.places)) || !g.closedByPreshares(len(g.places)-1) {
		return nil
	}
	pos := st.Pos
	if pos == 0 {
		pos = m.used[seat] + 1
	}
	var pre []WireInput
	for range safePreshares(m.Game(), st.Need, rollsAhead(m.Game().Clone(), seat, true, maxPreshares)) {
		pos++
		link, _, err := r.chain.Share(pos)
		if err != nil || pos%m.chainLen[seat] == 0 {
			break // a chain's last link goes in its roll (preshare.go)
		}
		pre = append(pre, WireInput{T: InPreshare, Link: hexDigest(link)})
	}
	return pre
}

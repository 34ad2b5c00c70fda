package oceans

// Battle look-ahead for the bots. Once both task forces are revealed a
// battle is a small game of perfect information, so a bot can solve it
// exactly ([solveFight]); to estimate a battle against cards it cannot see
// it plays many sampled battles out quickly with a greedy policy
// ([playOut]).

// distinctOptions returns one option index per kind of card among c's
// options: options of the same kind have the same effect.
func distinctOptions(f *fight, c choice) []int {
	var seen [numCards]bool
	out := make([]int, 0, 4)
	for i, x := range f.side(c.side) {
		if c.opts&(1<<i) != 0 && !seen[x.card] {
			seen[x.card] = true
			out = append(out, i)
		}
	}
	return out
}

// outcomeFor scores a battle's winner from side s's point of view: a win is
// 1, nobody winning 0, a loss -1.
func outcomeFor(w, s int) int {
	switch w {
	case s:
		return 1
	case -1:
		return 0
	}
	return -1
}

// solveFight returns the winning side of f (or -1) when both sides decide
// perfectly from here, and the option index the next decision should take
// (-1 when no decision is pending).
func solveFight(f fight) (winner, best int) {
	c := f.settle(nil)
	if c.kind == choiceNone {
		return f.winner(), -1
	}
	bestScore := -2
	winner, best = -1, -1
	for _, i := range distinctOptions(&f, c) {
		g := f
		g.resolve(c, i, nil)
		w, _ := solveFight(g)
		if s := outcomeFor(w, c.actor); s > bestScore {
			bestScore, winner, best = s, w, i
		}
	}
	return winner, best
}

// margin is side s's total minus its opponent's.
func (f *fight) margin(s int) int { return f.total(s) - f.total(1-s) }

// greedyOption picks the option of c that leaves the actor the best margin
// once the choice and the steps it forces are carried out.
func greedyOption(f *fight, c choice) int {
	best, bestScore := -1, -1<<30
	var seen [numCards]bool
	for i, x := range f.side(c.side) {
		if c.opts&(1<<i) == 0 || seen[x.card] {
			continue
		}
		seen[x.card] = true
		g := *f
		g.resolve(c, i, nil)
		g.settle(nil)
		if s := g.margin(c.actor); s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// playOut fights f to the end with the greedy policy and returns the
// winning side, or -1.
func playOut(f fight) int {
	for {
		c := f.settle(nil)
		if c.kind == choiceNone {
			return f.winner()
		}
		f.resolve(c, greedyOption(&f, c), nil)
	}
}

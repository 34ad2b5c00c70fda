package sea

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// NewStrongBot returns an agent that plays to win: it hides its carrier at
// the back edge, sends Harpoon-armed fighters to launch from next to the
// enemy carrier, drives its destroyers into range of the enemy carrier,
// shoots down Harpoons and fighters that threaten its own carrier, and plays
// dogfights and Sidewinders by their exact odds. Ties between equal choices
// are broken with r.
func NewStrongBot(r *rand.Rand) engine.Agent { return &bot{r: r, p: strongPlanner{r: r}} }

type strongPlanner struct{ r *rand.Rand }

// Values the strong bot weighs its choices with (bot tuning, not rules).
const (
	valCarrierHit   = 10.0 // damaging the enemy carrier
	valWin          = 30.0 // sinking a damaged carrier
	valDestroyer    = 4.0  // sinking a destroyer
	valFoeFighter   = 5.0  // shooting down an enemy fighter
	valHarpoonArmed = 9.0  // one of our fighters carrying a Harpoon
	valSidewinder   = 6.0  // one of our fighters carrying a Sidewinder
	valEmpty        = 4.0  // one of our fighters without a missile
	moveDiscount    = 0.7  // a shot next turn is worth this much of one now
	valApproach     = 0.05 // a destroyer's credit for each space closer to the enemy carrier
	valCharge       = 0.25 // the same, per space gained this turn, once destroyers are our only weapon
	launchReach     = 6    // launch a Harpoon this close to the enemy carrier
	guardWatch      = 8    // an enemy fighter this close to our carrier calls for a Sidewinder
)

const far = 99

// sview is what the strong bot precomputes for one decision.
type sview struct {
	g       *Game
	me, foe engine.Seat
	sec     engine.Secrets
	b       *boardMap
	mine    []FighterView
	theirs  []FighterView
	hd      [NumCells]int // our Harpoon's steps from a space into the enemy carrier
	threat  [NumCells]int // an enemy Harpoon's steps from a space into our carrier
	unknown [MaxStrength + 1]int
	sail    *[NumCells]int // sailField, computed when first asked
}

func newSview(g *Game, me engine.Seat, sec engine.Secrets) *sview {
	v := &sview{g: g, me: me, foe: other(me), sec: sec, b: g.board()}
	v.mine = g.Fighters(me, sec)
	v.theirs = g.Fighters(v.foe, nil)
	v.hd = harpoonField(v.b, me, g.carrierSpaces(v.foe))
	v.threat = harpoonField(v.b, v.foe, g.carrierSpaces(me))
	for s := MinStrength; s <= MaxStrength; s++ {
		v.unknown[s] = strengthCount(s)
	}
	for _, f := range v.theirs {
		if f.Public {
			v.unknown[f.Strength]--
		}
	}
	return v
}

// harpoonField returns, for every space, how many steps a Harpoon of seat s
// starting there needs to enter one of targets (far if it cannot).
func harpoonField(b *boardMap, s engine.Seat, targets []Cell) [NumCells]int {
	var d [NumCells]int
	for i := range d {
		d[i] = far
	}
	var queue []Cell
	for _, t := range targets {
		d[t] = 0
		queue = append(queue, t)
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if d[c] > 0 && (b.shallow[c] || b.isShip(c)) {
			continue // a Harpoon cannot pass through here
		}
		for _, n := range Neighbors(c) {
			if d[n] != far || b.shallow[n] || (b.isShip(n) && b.occ[n].Owner == s) {
				continue
			}
			d[n] = d[c] + 1
			queue = append(queue, n)
		}
	}
	return d
}

// pHit is the chance one die is at least need.
func pHit(need int) float64 {
	switch {
	case need <= 1:
		return 1
	case need > DieFaces:
		return 0
	}
	return float64(DieFaces-need+1) / DieFaces
}

// pMaxLE is the chance the highest of k dice is at most x.
func pMaxLE(k, x int) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= DieFaces:
		return 1
	}
	return math.Pow(float64(x)/DieFaces, float64(k))
}

// dogfightOdds returns the attacker's chances to win and to lose a dogfight
// of attacker strength ka against defender strength kd (no Sidewinders).
func dogfightOdds(ka, kd int) (win, loss float64) {
	for d := 1; d <= DieFaces; d++ {
		pd := pMaxLE(kd, d) - pMaxLE(kd, d-1)
		win += pd * (1 - pMaxLE(ka, d))
		loss += pd * pMaxLE(ka, d-1)
	}
	return win, loss
}

func (p strongPlanner) strengths(r *rand.Rand) [][]byte { return shuffledStrengths(r) }

func (p strongPlanner) missile(g *Game, seat engine.Seat, sec engine.Secrets, f int) Missile {
	// One interceptor with a Sidewinder when enemy fighters close in on our
	// carrier and none of ours carries one; Harpoons otherwise.
	v := newSview(g, seat, sec)
	for _, m := range v.mine {
		if m.State == InFlight && m.Missile == Sidewinder {
			return Harpoon
		}
	}
	if v.threatened() {
		return Sidewinder
	}
	return Harpoon
}

// threatened reports whether an enemy fighter flies within guardWatch
// Harpoon steps of our carrier.
func (v *sview) threatened() bool {
	for _, t := range v.theirs {
		if t.State == InFlight && v.threat[t.Cell] <= guardWatch {
			return true
		}
	}
	return false
}

func (p strongPlanner) move(g *Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (Move, error) {
	switch n.Name {
	case NeedPlace:
		return p.place(g)
	case NeedHarpoonPick:
		v := newSview(g, seat, sec)
		ids := g.PendingHarpoons()
		best := ids[0]
		for _, h := range g.Harpoons() {
			if slices.Contains(ids, h.ID) && v.hd[h.Cell] < v.hd[g.harpoonCell(best)] {
				best = h.ID
			}
		}
		return HarpoonMove(best), nil
	case NeedHarpoonPath, NeedLaunchPath:
		return p.harpoonPath(g, seat, sec, n.Name == NeedLaunchPath), nil
	case NeedReturn:
		// Fighters without a missile go back to rearm; so does a Sidewinder
		// guard with nothing to intercept while we have nothing else to
		// attack with: it rearms with a Harpoon (see missile). Two guards
		// parked on their launch spaces used to wait for each other until
		// the turn cap (issue 14.15).
		v := newSview(g, seat, sec)
		idle := !v.threatened() && !v.offense()
		var ret []int
		for _, f := range v.mine {
			if f.State == InFlight && (!f.Armed || idle && f.Missile == Sidewinder) && len(ret) < 2 {
				ret = append(ret, f.Index)
			}
		}
		return ReturnMove(ret), nil
	case NeedScramble:
		return p.scramble(newSview(g, seat, sec)), nil
	case NeedDestroyers, NeedDefense:
		return p.destroyers(newSview(g, seat, sec), n.Name == NeedDefense), nil
	case NeedDamage:
		_, count, _ := g.PendingDamage()
		deck := g.Admiral(seat).Deck
		fs := g.Fighters(seat, sec)
		slices.SortStableFunc(deck, func(a, b int) int { return fs[a].Strength - fs[b].Strength })
		return RemoveMove(deck[:count]), nil
	case NeedDefender, NeedAttacker:
		return p.dogfighter(g, seat, sec, n.Name == NeedDefender), nil
	case NeedSidewinder:
		return p.sidewinder(g, seat, sec), nil
	case NeedLaunch:
		v := newSview(g, seat, sec)
		best, bestD := -1, launchReach+1
		for _, f := range v.mine {
			if f.State == InFlight && f.Missile == Harpoon && v.hd[f.Cell] < bestD {
				best, bestD = f.Index, v.hd[f.Cell]
			}
		}
		if best < 0 {
			return DoneMove(), nil
		}
		return LaunchMove(best), nil
	}
	return Move{}, errNoOption
}

func (g *Game) harpoonCell(id int) Cell {
	if i := g.harpoonIndex(id); i >= 0 {
		return g.harpoons[i].cell
	}
	return NoCell
}

// place picks the best-scoring legal placement.
func (p strongPlanner) place(g *Game) (Move, error) {
	opts := g.PlacementOptions()
	if len(opts) == 0 {
		return Move{}, errNoOption
	}
	seat, piece, _ := g.Placing()
	back := func(c Cell) int { // rows between c and the middle of the board
		if seat == 0 {
			return HalfRows - 1 - c.Row()
		}
		return c.Row() - HalfRows
	}
	toward := South
	if seat == 1 {
		toward = North
	}
	car := g.carrierSpaces(seat)
	launch := g.launchSpace(seat)
	best, bestScore := []Move{}, math.Inf(-1)
	for _, m := range opts {
		c := *m.Cell
		var score float64
		switch piece {
		case PieceCarrier:
			cells, _ := carrierCells(c, *m.Facing)
			nearest := HalfRows
			for _, x := range cells {
				nearest = min(nearest, back(x))
			}
			edge := min(c.Col(), Cols-1-c.Col())
			score = 10*float64(nearest) - float64(edge)
		case PieceDestroyer:
			f := *m.Facing
			if f == toward {
				score += 6
			} else if f == toward.Left() || f == toward.Right() {
				score += 4
			}
			score -= float64(back(c))
			if Dist(c, launch) <= 2 || Dist(Step(c, f.Opposite()), launch) <= 2 {
				score -= 5
			}
		case PieceShallow:
			cells, _ := shallowCells(c)
			d := MinDist(cells[:], car)
			score = -math.Abs(float64(d) - 2.5)
			if MinDist(cells[:], []Cell{launch}) <= 2 {
				score -= 4
			}
			for _, x := range cells {
				if back(x) < back(car[0]) {
					score += 0.5 // on the side facing the enemy
				}
			}
		}
		switch {
		case score > bestScore:
			best, bestScore = []Move{m}, score
		case score == bestScore:
			best = append(best, m)
		}
	}
	return pick(p.r, best), nil
}

// fighterValue is what the strong bot thinks of its fighter f standing on c.
func (v *sview) fighterValue(f FighterView, c Cell, mis Missile, armed bool) float64 {
	own := valEmpty
	var val float64
	switch {
	case armed && mis == Harpoon:
		own = valHarpoonArmed
		d := v.hd[c]
		val = 20 - float64(min(d, 20))
		if d <= launchReach {
			val += valCarrierHit * pHit(d)
		}
	case armed && mis == Sidewinder:
		own = valSidewinder
		// Guard our carrier: stay between it and the nearest threat.
		val = 10 - float64(min(v.threat[c], 10))/2
	default:
		val = 10 - float64(min(v.threat[c], 10))
	}
	// Dogfights it would start.
	for _, t := range v.theirs {
		if t.State != InFlight || !Adjacent(t.Cell, c) {
			continue
		}
		win, loss := v.oddsAgainst(f.Strength, t, mis == Sidewinder && armed)
		val += win*valFoeFighter - loss*own
		break
	}
	// Enemy destroyers' defensive fire.
	for _, d := range v.g.Destroyers(v.foe) {
		if !d.Afloat {
			continue
		}
		dist := MinDist([]Cell{d.Bow, d.Stern}, []Cell{c})
		if dist <= FireRange {
			val -= 0.5 * pHit(dist+1) * own
		}
	}
	return val
}

// oddsAgainst estimates our fighter of strength s attacking enemy fighter t.
func (v *sview) oddsAgainst(s int, t FighterView, sidewinder bool) (win, loss float64) {
	ka := s
	if sidewinder {
		ka++ // a rough stand-in for the Sidewinder's help
	}
	if t.Public {
		return dogfightOdds(min(ka, 5), t.Strength)
	}
	total := 0
	for k := MinStrength; k <= MaxStrength; k++ {
		total += v.unknown[k]
	}
	if total == 0 {
		return dogfightOdds(min(ka, 5), 3)
	}
	for k := MinStrength; k <= MaxStrength; k++ {
		w, l := dogfightOdds(min(ka, 5), k)
		win += w * float64(v.unknown[k]) / float64(total)
		loss += l * float64(v.unknown[k]) / float64(total)
	}
	return win, loss
}

// scramble assigns the dice, largest first, to the fighter and destination
// that gain the most.
func (p strongPlanner) scramble(v *sview) Move {
	dice := v.g.ScrambleRoll()
	order := make([]int, len(dice))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return dice[b] - dice[a] })
	var flights []Flight
	used := map[int]bool{}
	for _, di := range order {
		bestGain, bestF := 0.5, -1
		var bestPath []Cell
		for _, f := range v.mine {
			if used[f.Index] || !(f.State == InFlight || (f.State == OnDeck && !f.Returned)) {
				continue
			}
			mis, armed := f.Missile, f.Armed
			var base float64
			if f.State == OnDeck {
				mis, armed = Harpoon, true
				base = v.fighterValue(f, v.g.launchSpace(v.me), mis, armed) - 3
			} else {
				base = v.fighterValue(f, f.Cell, mis, armed)
			}
			for _, d := range v.g.FighterDestinations(v.me, f.Index, dice[di], flights) {
				gain := v.fighterValue(f, d.Cell, mis, armed) - base + 0.01*p.r.Float64()
				if gain > bestGain {
					bestGain, bestF, bestPath = gain, f.Index, d.Path
				}
			}
		}
		if bestF < 0 {
			continue
		}
		used[bestF] = true
		flights = append(flights, Flight{Fighter: bestF, Die: di, Path: bestPath})
	}
	return ScrambleMove(flights)
}

// shotValue is what hitting t is worth to seat v.me.
func (v *sview) shotValue(t Target) float64 {
	g := v.g
	switch t.Kind {
	case TargetCarrier:
		if g.sides[v.foe].carrier.damaged {
			return valWin
		}
		return valCarrierHit
	case TargetDestroyer:
		return valDestroyer
	case TargetHarpoon:
		d := v.threat[g.harpoonCell(t.Index)]
		return valCarrierHit*pHit(d) + 1
	case TargetFighter:
		f := v.theirs[t.Index]
		d := v.threat[f.Cell]
		val := valFoeFighter / 2
		if f.Armed && d <= launchReach+DieFaces {
			val += 0.5 * valCarrierHit * pHit(max(d-DieFaces, 1))
		}
		return val
	}
	return 0
}

// destroyers picks the best shot or move for any destroyer still free, or
// ends the step.
func (p strongPlanner) destroyers(v *sview, defense bool) Move {
	g := v.g
	best, bestScore := DoneMove(), 0.3
	for _, d := range g.Destroyers(v.me) {
		if !d.Afloat || (defense && d.Fired) || (!defense && d.Acted) {
			continue
		}
		for _, t := range g.FireTargets(v.me, d.Index) {
			s := pHit(t.Distance+1) * v.shotValue(t.Target)
			if s > bestScore {
				best, bestScore = FireMove(d.Index, t.Target), s
			}
		}
		if defense {
			continue
		}
		for _, path := range g.DestroyerMoves(v.me, d.Index) {
			s := moveDiscount * v.carrierShotFrom(d.Index, path)
			if s > bestScore {
				best, bestScore = DestroyerMove(d.Index, path), s
			}
		}
	}
	return best
}

// carrierShotFrom values destroyer d's shot at the enemy carrier after
// moving its bow through path, with a little credit for closing in.
func (v *sview) carrierShotFrom(d int, path []Cell) float64 {
	car := v.g.carrierSpaces(v.foe)
	if len(car) == 0 {
		return 0
	}
	bow := path[len(path)-1]
	dd := v.g.sides[v.me].destroyers[d]
	stern := dd.bow
	if len(path) == 2 {
		stern = path[0]
	}
	dist := MinDist([]Cell{bow, stern}, car)
	val := valApproach * float64(Rows-dist)
	if !v.offense() {
		// Without fighters or Harpoons to carry the attack, a destroyer
		// that waits at home waits for ever (issue 14.15: strong-vs-strong
		// games ran to the turn cap): every space gained this turn counts
		// enough to beat ending the step, and a destroyer already as close
		// as it can get gains nothing by moving, so it fires instead.
		// Spaces are counted around the shallows, which a destroyer can
		// neither cross nor fire through.
		field := v.sailField()
		near := func(a, b Cell) int { return min(field[a], field[b]) }
		val += valCharge * float64(near(dd.bow, dd.stern)-near(bow, stern))
	}
	if dist <= FireRange {
		blocked := func(c Cell) bool { return v.b.shallow[c] }
		for _, a := range []Cell{bow, stern} {
			for _, c := range car {
				if Dist(a, c) == dist && LineClear(a, c, blocked) {
					return val + pHit(dist+1)*v.shotValue(Target{Kind: TargetCarrier})
				}
			}
		}
	}
	return val
}

// sailField returns, for every space, the steps from it to the enemy
// carrier around the shallows (ships are ignored: they move or sink), far
// where no way leads.
func (v *sview) sailField() *[NumCells]int {
	if v.sail != nil {
		return v.sail
	}
	v.sail = new([NumCells]int)
	d := v.sail
	for i := range d {
		d[i] = far
	}
	queue := v.g.carrierSpaces(v.foe)
	for _, c := range queue {
		d[c] = 0
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, n := range Neighbors(c) {
			if d[n] == far && !v.b.shallow[n] {
				d[n] = d[c] + 1
				queue = append(queue, n)
			}
		}
	}
	return d
}

// offense reports whether we can still hurt the enemy carrier with more
// than our destroyers: a fighter on deck (it takes a Harpoon when it
// scrambles), a Harpoon-armed fighter in flight, or a Harpoon in the water.
func (v *sview) offense() bool {
	for _, f := range v.mine {
		if f.State == OnDeck || f.State == InFlight && f.Armed && f.Missile == Harpoon {
			return true
		}
	}
	for _, h := range v.g.harpoons {
		if h.owner == v.me {
			return true
		}
	}
	return false
}

// harpoonPath steers a rolled Harpoon: into the enemy carrier if it can,
// else into a destroyer when the carrier is out of reach, else as close to
// the carrier as it may stop.
func (p strongPlanner) harpoonPath(g *Game, seat engine.Seat, sec engine.Secrets, launch bool) Move {
	v := newSview(g, seat, sec)
	dests := g.HarpoonDestinations()
	req, _ := g.PendingPath()
	var carrierHit, destroyerHit *Destination
	for i, d := range dests {
		if !d.Hit {
			continue
		}
		switch v.b.occ[d.Cell].Kind {
		case CarrierPiece:
			carrierHit = &dests[i]
		case DestroyerPiece:
			destroyerHit = &dests[i]
		}
	}
	switch {
	case carrierHit != nil:
		return PathMove(carrierHit.Path)
	case destroyerHit != nil && (!launch || v.hd[req.From]-req.Steps > 3):
		return PathMove(destroyerHit.Path)
	case !launch:
		return PathMove(nil)
	}
	var best []Cell
	bestD := far + 1
	for _, d := range dests {
		if !d.Hit && v.hd[d.Cell] < bestD {
			best, bestD = d.Path, v.hd[d.Cell]
		}
	}
	return PathMove(best)
}

// dogfighter picks our fighter for the dogfight: the defender with the best
// odds against its neighbours, or the attacker with the best odds against
// the revealed defender.
func (p strongPlanner) dogfighter(g *Game, seat engine.Seat, sec engine.Secrets, defender bool) Move {
	v := newSview(g, seat, sec)
	cands := g.DogfightCandidates()
	best, bestScore := cands[0], math.Inf(-1)
	df, _ := g.Dogfight()
	for _, c := range cands {
		f := v.mine[c]
		sw := f.Armed && f.Missile == Sidewinder
		var score float64
		if defender {
			score = float64(f.Strength)
			if sw {
				score += 0.7
			}
			if f.Armed && f.Missile == Harpoon {
				score -= 0.5 // keep Harpoon carriers out of it if we can
			}
		} else {
			win, loss := v.oddsAgainst(f.Strength, v.theirs[df.Fighters[0]], sw)
			score = win - loss
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return FighterMove(best)
}

// sidewinder decides whether and how to use the dogfighting fighter's
// missile: by the exact chance to beat the other side's score (the
// defender, rolling first, plays against the attacker's dice).
func (p strongPlanner) sidewinder(g *Game, seat engine.Seat, sec engine.Secrets) Move {
	df, _ := g.Dogfight()
	side := df.Rolling
	dice := df.Dice[side]
	if g.Fighters(seat, sec)[df.Fighters[side]].Missile != Sidewinder {
		return DoneMove() // the engine asks whenever a missile is loaded
	}
	other := 1 - side
	// value(s) is our win minus loss chance if our score is s.
	value := func(s int) float64 {
		if side == 1 {
			d := slices.Max(df.Dice[0]) + df.Bonus[0]
			switch {
			case s > d:
				return 1
			case s < d:
				return -1
			}
			return 0
		}
		k := g.dfStrength(other)
		return pMaxLE(k, s-1) - (1 - pMaxLE(k, s))
	}
	best, bestVal := DoneMove(), value(slices.Max(dice))
	if v := value(slices.Max(dice) + 1); v > bestVal {
		best, bestVal = SidewinderPlus(), v
	}
	for i := range dice {
		rest := slices.Clone(dice)
		rest = append(rest[:i], rest[i+1:]...)
		keep := 0
		if len(rest) > 0 {
			keep = slices.Max(rest)
		}
		var ev float64
		for r := 1; r <= DieFaces; r++ {
			ev += value(max(keep, r)) / DieFaces
		}
		if ev > bestVal+1e-9 {
			best, bestVal = SidewinderReroll(i), ev
		}
	}
	return best
}

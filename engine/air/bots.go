package air

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// botGame is the Air game a bot was asked to decide in; an error if ctx
// has ended or eg is another game.
func botGame(ctx context.Context, eg engine.Game) (*Game, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g, ok := eg.(*Game)
	if !ok {
		return nil, fmt.Errorf("air bot: not an Air game (%T)", eg)
	}
	return g, nil
}

// RandomBot makes uniformly random legal decisions.
type RandomBot struct{ r *rand.Rand }

// NewRandomBot returns a random bot drawing from r.
func NewRandomBot(r *rand.Rand) *RandomBot { return &RandomBot{r: r} }

// Decide picks a random card per plane, or a random legal move.
func (b *RandomBot) Decide(ctx context.Context, eg engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	g, err := botGame(ctx, eg)
	if err != nil {
		return engine.Decision{}, err
	}
	switch n.Kind {
	case engine.NeedChoice:
		hand := g.Hand(seat)
		perm := b.r.Perm(len(hand))
		var c Choice
		for _, p := range g.seatPlanes(int(seat)) {
			if !p.Down && len(c.Cards) < len(hand) {
				ref := hand[perm[len(c.Cards)]]
				c.Cards = append(c.Cards, PlaneCard{Plane: p.ID, Deck: ref.Deck, Pos: ref.Pos})
			}
		}
		return engine.Decision{Choice: EncodeChoice(c)}, nil
	case engine.NeedMove:
		ms := g.LegalMoves()
		if len(ms) == 0 {
			return engine.Decision{}, fmt.Errorf("air bot: no legal move for %s", seat)
		}
		return engine.Decision{Move: ms[b.r.IntN(len(ms))].Encode()}, nil
	}
	return engine.Decision{}, fmt.Errorf("air bot: nothing to decide for a %s need", n.Kind)
}

// StrongBot plays by a one-ply expectation over the dice: it picks the
// cards whose maneuvers (and wingman and disruption powers) leave its planes
// best placed to hit and least exposed, fires with the weapon most likely to
// hit (saving missiles when cannons do as well), fires before moving only
// when that shot beats the expected shot after the move, and disrupts the
// opposing plane whose displacement helps it most.
type StrongBot struct{ r *rand.Rand }

// NewStrongBot returns a strong bot; r breaks ties.
func NewStrongBot(r *rand.Rand) *StrongBot { return &StrongBot{r: r} }

// hitChance[w][d] is P(sum of the weapon's red dice ≥ d).
var hitChance = func() [2][16]float64 {
	var out [2][16]float64
	for w, dice := range []int{MissileDice, CannonDice} {
		dist := sumDist(dice, RedFaces)
		for d := range out[w] {
			for s, p := range dist {
				if s >= d {
					out[w][d] += p
				}
			}
		}
	}
	return out
}()

// blackDist[k] is the distribution of the sum of k black dice.
var blackDist = func() [5][]float64 {
	var out [5][]float64
	for k := 1; k <= 4; k++ {
		out[k] = sumDist(k, BlackFaces)
	}
	return out
}()

func sumDist(dice int, faces [6]int) []float64 {
	dist := []float64{1}
	for range dice {
		next := make([]float64, len(dist)+6)
		for s, p := range dist {
			for _, f := range faces {
				next[s+f] += p / 6
			}
		}
		dist = next
	}
	return dist
}

// shot returns the best chance a plane has to hit a target, and the weapon.
func shot(a Plane, t Pos) (float64, Weapon) {
	d := Distance(a.Pos, t)
	if d >= 16 {
		return 0, Cannon
	}
	best, w := 0.0, Cannon
	if InCone(a.Pos, a.Heading, t, Cannon) {
		best = hitChance[Cannon][d]
	}
	if a.Missiles > 0 && InCone(a.Pos, a.Heading, t, Missile) && hitChance[Missile][d] > best+0.05 {
		best, w = hitChance[Missile][d], Missile
	}
	return best, w
}

// exposure is how much plane p at its place threatens and is threatened:
// its best shot at any opponent minus the opponents' best shots at it.
func (g *Game) exposure(p Plane) float64 {
	best, threat := 0.0, 0.0
	for _, o := range g.planes {
		if o.Down || !g.opposes(p.Seat, o.Seat) {
			continue
		}
		if s, _ := shot(p, o.Pos); s > best {
			best = s
		}
		s, _ := shot(o, p.Pos)
		threat += s
	}
	return best - 0.6*threat
}

// landing returns where plane id ends a maneuver of total spaces (the
// engine's flight, without the collision's dice).
func (g *Game) landing(id int, turn Turn, total int) Plane {
	p := g.planes[id]
	p.Heading = p.Heading.Turned(turn)
	for range total {
		next := Step(p.Pos, p.Heading)
		if g.collide && g.occupant(next, id) >= 0 {
			return p
		}
		p.Pos = next
	}
	for !g.collide && g.occupant(p.Pos, id) >= 0 {
		p.Pos = Step(p.Pos, p.Heading)
	}
	return p
}

// expectFly returns the expected exposure of plane id after a maneuver,
// the F-35 choosing its +1 when it helps.
func (g *Game) expectFly(id int, m Maneuver, own bool) float64 {
	ev := 0.0
	for total, p := range blackDist[m.Dice] {
		if p == 0 {
			continue
		}
		v := g.exposure(g.landing(id, m.Turn, total))
		if own && g.planes[id].Kind == F35 {
			v = max(v, g.exposure(g.landing(id, m.Turn, total+1)))
		}
		ev += p * v
	}
	return ev
}

// wingmanBest returns the best wingman space for plane id and its value.
func (g *Game) wingmanBest(id int) (Pos, float64, bool) {
	mate := g.planes[id^1]
	if mate.Down {
		return Pos{}, 0, false
	}
	found, best, bestV := false, Pos{}, 0.0
	for h := range Heading(8) {
		to := Pos{mate.Pos.X + h.Delta().X, mate.Pos.Y + h.Delta().Y}
		if !to.OnBoard() || g.occupant(to, id) >= 0 {
			continue
		}
		p := g.planes[id]
		p.Pos, p.Heading = to, mate.Heading
		if v := g.exposure(p); !found || v > bestV {
			found, best, bestV = true, to, v
		}
	}
	return best, bestV, found
}

// disruptBest returns the opposing plane whose disruption helps seat most.
func (g *Game) disruptBest(seat engine.Seat, m Maneuver) (int, float64) {
	bestID, bestV := -1, 0.0
	for _, o := range g.planes {
		if o.Down || !g.opposes(seat, o.Seat) {
			continue
		}
		before := -g.exposure(o)
		after := 0.0
		for total, p := range blackDist[m.Dice] {
			if p == 0 {
				continue
			}
			w := g.clone()
			w.planes[o.ID] = g.landing(o.ID, m.Turn, total)
			after += p * -w.exposure(w.planes[o.ID])
		}
		if v := after - before; bestID < 0 || v > bestV {
			bestID, bestV = o.ID, v
		}
	}
	return bestID, bestV
}

// cardValue estimates playing card c for plane id this round.
func (g *Game) cardValue(id int, c Card) float64 {
	pl := g.planes[id]
	fireNow, _ := g.bestShot(pl)
	v := g.expectFly(id, c.Own, true)
	if c.Kind == Wingman {
		if _, wv, ok := g.wingmanBest(id); ok && wv > v {
			v = wv
		}
	}
	if c.Kind == Disruption {
		if _, dv := g.disruptBest(pl.Seat, c.Opp); dv > 0 {
			v += 0.5 * dv
		}
	}
	v = max(v, fireNow+v*0.5)
	// Acting early matters when a shot is on now: before it moves away.
	v += fireNow * float64(DeckSize-c.Number) / DeckSize * 0.3
	return v
}

// bestShot returns the most likely hit of plane a and the move firing it.
func (g *Game) bestShot(a Plane) (float64, Move) {
	best, mv := 0.0, Move{}
	for _, o := range g.planes {
		if o.Down || !g.opposes(a.Seat, o.Seat) {
			continue
		}
		if s, w := shot(a, o.Pos); s > best {
			best, mv = s, FireMove(w, o.ID)
		}
	}
	return best, mv
}

// Decide chooses cards by their expected value and moves by the turn plan.
func (b *StrongBot) Decide(ctx context.Context, eg engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	g, err := botGame(ctx, eg)
	if err != nil {
		return engine.Decision{}, err
	}
	switch n.Kind {
	case engine.NeedChoice:
		return engine.Decision{Choice: EncodeChoice(b.choose(g, seat, sec))}, nil
	case engine.NeedMove:
		m, err := b.move(g)
		if err != nil {
			return engine.Decision{}, err
		}
		return engine.Decision{Move: m.Encode()}, nil
	}
	return engine.Decision{}, fmt.Errorf("air bot: nothing to decide for a %s need", n.Kind)
}

func (b *StrongBot) choose(g *Game, seat engine.Seat, sec engine.Secrets) Choice {
	hand := g.HandCards(seat, sec)
	var planes []Plane
	for _, p := range g.seatPlanes(int(seat)) {
		if !p.Down {
			planes = append(planes, p)
		}
	}
	if len(hand) < len(g.Hand(seat)) || len(hand) < len(planes) {
		// The secrets do not tell every card: play the first ones.
		refs := g.Hand(seat)
		var c Choice
		for i, p := range planes {
			if i < len(refs) {
				c.Cards = append(c.Cards, PlaneCard{Plane: p.ID, Deck: refs[i].Deck, Pos: refs[i].Pos})
			}
		}
		return c
	}
	val := make([][]float64, len(planes))
	for i, p := range planes {
		val[i] = make([]float64, len(hand))
		for j, h := range hand {
			val[i][j] = g.cardValue(p.ID, h.Card) + b.r.Float64()*1e-6
		}
	}
	best, bi, bj := -1e9, 0, -1
	if len(planes) == 1 {
		for j := range hand {
			if val[0][j] > best {
				best, bi = val[0][j], j
			}
		}
		return Choice{Cards: []PlaneCard{{Plane: planes[0].ID, Deck: hand[bi].Ref.Deck, Pos: hand[bi].Ref.Pos}}}
	}
	for i := range hand {
		for j := range hand {
			if i != j && val[0][i]+val[1][j] > best {
				best, bi, bj = val[0][i]+val[1][j], i, j
			}
		}
	}
	return Choice{Cards: []PlaneCard{
		{Plane: planes[0].ID, Deck: hand[bi].Ref.Deck, Pos: hand[bi].Ref.Pos},
		{Plane: planes[1].ID, Deck: hand[bj].Ref.Deck, Pos: hand[bj].Ref.Pos},
	}}
}

func (b *StrongBot) move(g *Game) (Move, error) {
	legal := g.LegalMoves()
	if len(legal) == 0 {
		return Move{}, fmt.Errorf("air bot: no legal move")
	}
	isLegal := func(m Move) bool {
		for _, l := range legal {
			if l.String() == m.String() {
				return true
			}
		}
		return false
	}
	t := g.ts
	pl := g.planes[t.plane]
	if g.pend.kind == pendBonus {
		a := g.exposure(g.landing(t.plane, t.card.Own.Turn, g.pend.total))
		c := g.exposure(g.landing(t.plane, t.card.Own.Turn, g.pend.total+1))
		return BonusMove(c > a), nil
	}
	now, fire := g.bestShot(pl)
	if !t.moved {
		after := g.expectFly(t.plane, t.card.Own, true)
		moveMove := PlainMove(ActMove)
		if t.card.Kind == Wingman {
			if to, wv, ok := g.wingmanBest(t.plane); ok && wv > after {
				after, moveMove = wv, WingmanMove(to)
			}
		}
		// Fire first when this shot beats the shot expected after moving.
		if !t.fired && now > 0 && now >= after && isLegal(fire) {
			return fire, nil
		}
		if isLegal(moveMove) {
			return moveMove, nil
		}
	}
	if !t.disrupted {
		if id, _ := g.disruptBest(pl.Seat, t.card.Opp); id >= 0 && isLegal(DisruptMove(id)) {
			return DisruptMove(id), nil
		}
	}
	if !t.fired && now > 0 && isLegal(fire) {
		return fire, nil
	}
	if isLegal(PlainMove(ActEnd)) {
		return PlainMove(ActEnd), nil
	}
	return legal[b.r.IntN(len(legal))], nil
}

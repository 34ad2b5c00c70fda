package ubuild

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

var expSamples = 0

var expSamplesHook func() int

var expLook func(k *knowledge, r *rand.Rand) Cell

// The hunter's own choices.
const (
	// hunterDamp is the weight factor, per cell already chosen in the same
	// volley, of a ship position covering it: a soft "assume it missed" that
	// spreads a volley's shots (0 would assume a miss, 1 would ignore the
	// earlier picks).
	hunterDamp = 0.1
	// hunterLayoutTries bounds the draws for a layout where no two ships
	// touch side by side; the last draw is kept if none qualifies.
	hunterLayoutTries = 200
)

// hunterWeapons is the hunter's custom build: every spare weapon on the
// battleship, whose plate still sinks it at 5 hits, so that it fires 8.
var hunterWeapons = [NumShips]int{8, 4, 3, 3, 2}

// HunterBot is the strong bot. It fires where the opponent's afloat ships
// most probably are: for each ship it counts the positions still consistent
// with every answer (a hit names the ship, so it constrains only that ship's
// positions; sunk ships are fixed), turns them into per-cell probabilities,
// and shoots the best cell; a volley picks its cells greedily, damping the
// positions through cells already picked. It always fires the ship with the
// most shots.
type HunterBot struct {
	r *rand.Rand
}

// NewHunterBot returns a hunter bot drawing its layouts and tie-breaks from r.
func NewHunterBot(r *rand.Rand) *HunterBot { return &HunterBot{r: r} }

// Decide implements [engine.Agent].
func (b *HunterBot) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	return botDecide(ctx, b, g, seat, sec, n)
}

// layout draws uniform layouts until no two ships touch side by side.
func (b *HunterBot) layout() Layout {
	var l Layout
	for range hunterLayoutTries {
		l = RandomLayout(b.r)
		if !touching(l) {
			break
		}
	}
	return l
}

// touching reports whether two ships of l lie side by side.
func touching(l Layout) bool {
	var ms [NumShips]mask
	for s := range Ship(NumShips) {
		ms[s], _ = l[s].mask(s.Plate())
	}
	for s := range Ship(NumShips) {
		var halo mask
		ms[s].each(func(c Cell) {
			r, col := c.Row(), c.Col()
			if r > 0 {
				halo.set(c - Cols)
			}
			if r < Rows-1 {
				halo.set(c + Cols)
			}
			if col > 0 {
				halo.set(c - 1)
			}
			if col < Cols-1 {
				halo.set(c + 1)
			}
		})
		for t := s + 1; t < NumShips; t++ {
			if halo.meets(ms[t]) {
				return true
			}
		}
	}
	return false
}

func (b *HunterBot) weapons() [NumShips]int { return hunterWeapons }

func (b *HunterBot) fire(g *Game, seat engine.Seat, sec engine.Secrets) (Ship, []Cell, error) {
	ship, limit, err := pickShip(g, seat, sec, func(_ []Ship, limits []int) int {
		best := 0
		for i, n := range limits {
			if n > limits[best] {
				best = i
			}
		}
		return best
	})
	if err != nil {
		return NoShip, nil, err
	}
	k := knowledgeOf(g, 1-seat)
	shots := k.volley(limit, b.r)
	if len(shots) == 0 {
		return NoShip, nil, fmt.Errorf("no cell left to call")
	}
	return ship, shots, nil
}

// volley picks up to n uncalled cells greedily by density.
func (k *knowledge) volley(n int, r *rand.Rand) []Cell {
	var pick mask
	out := make([]Cell, 0, n)
	for range n {
		d, ok := k.density(pick, hunterDamp)
		if expSamplesHook != nil {
			expSamples = expSamplesHook()
		}
		if expSamples > 0 {
			d, ok = k.sampledDensity(expSamples, r)
		}
		taken := k.shot.or(pick)
		c := bestCell(d, taken, ok, r)
		if expLook != nil && n == 1 {
			c = expLook(k, r)
		}
		if c < 0 {
			break
		}
		pick.set(c)
		out = append(out, c)
	}
	return out
}

// bestCell returns a uniformly chosen cell among the untaken ones of highest
// density (any untaken cell when the density is unusable); -1 if none.
func bestCell(d [NumCells]float64, taken mask, ok bool, r *rand.Rand) Cell {
	const eps = 1e-9
	best := -1.0
	var ties []Cell
	for c := range Cell(NumCells) {
		if taken.has(c) {
			continue
		}
		v := d[c]
		if !ok {
			v = 0
		}
		switch {
		case v > best+eps:
			best = v
			ties = append(ties[:0], c)
		case v >= best-eps:
			ties = append(ties, c)
		}
	}
	if len(ties) == 0 {
		return -1
	}
	return ties[r.IntN(len(ties))]
}

package cards

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// commitLeaves returns the leaves seat commits for need n, in the order r
// shuffles them: the coordinate cards, the deck list, or (for a reshuffle)
// the cards of its discard pile.
func commitLeaves(g *Game, seat engine.Seat, n engine.Need, r *rand.Rand) ([][]byte, error) {
	var out [][]byte
	switch {
	case n.Name == CoordsName:
		for _, k := range CoordList() {
			out = append(out, EncodeCoord(k))
		}
	case n.Name == DeckName(1):
		deck, err := DeckList(g.Variant())
		if err != nil {
			return nil, err
		}
		for _, f := range deck {
			out = append(out, EncodeCard(f))
		}
	default:
		if _, ok := parseDeckName(n.Name); !ok {
			return nil, fmt.Errorf("cards bot: unknown commitment %q", n.Name)
		}
		for _, f := range countsToFaces(g.Discard(seat)) {
			out = append(out, EncodeCard(f))
		}
	}
	if len(out) != n.Size {
		return nil, fmt.Errorf("cards bot: %d leaves for %q, need %d", len(out), n.Name, n.Size)
	}
	r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out, nil
}

// decide is the part both bots share: commitments, and the game check.
func decide(ctx context.Context, eg engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need, r *rand.Rand,
	pick func(g *Game, moves []Move) Move) (engine.Decision, error) {
	if err := ctx.Err(); err != nil {
		return engine.Decision{}, err
	}
	g, ok := eg.(*Game)
	if !ok {
		return engine.Decision{}, fmt.Errorf("cards bot: game is a %T, not a cards game", eg)
	}
	switch n.Kind {
	case engine.NeedCommit:
		leaves, err := commitLeaves(g, seat, n, r)
		if err != nil {
			return engine.Decision{}, err
		}
		return engine.Decision{Leaves: leaves}, nil
	case engine.NeedMove:
		moves := g.LegalMoves(seat, sec)
		if len(moves) == 0 {
			return engine.Decision{}, fmt.Errorf("cards bot: %s has no legal move (hand unknown to its secrets?)", seat)
		}
		m := pick(g, moves)
		b, err := engine.EncodeMove(m)
		if err != nil {
			return engine.Decision{}, fmt.Errorf("cards bot: %w", err)
		}
		return engine.Decision{Move: b}, nil
	}
	return engine.Decision{}, fmt.Errorf("cards bot: nothing to decide for a %s need", n.Kind)
}

// RandomBot plays uniformly random legal decisions.
type RandomBot struct{ r *rand.Rand }

// NewRandomBot returns a bot that picks uniformly among the distinct legal
// decisions (a tap counts once per card face: every facedown position hides
// a card picked at random anyway, so the position is picked afterwards).
func NewRandomBot(r *rand.Rand) *RandomBot { return &RandomBot{r: r} }

// Decide implements engine.Agent.
func (b *RandomBot) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	return decide(ctx, g, seat, sec, n, b.r, func(_ *Game, moves []Move) Move {
		var kinds []Move
		taps := map[Face][]Move{}
		for _, m := range moves {
			if m.Action == Tap {
				if len(taps[m.Face]) == 0 {
					kinds = append(kinds, m)
				}
				taps[m.Face] = append(taps[m.Face], m)
				continue
			}
			kinds = append(kinds, m)
		}
		m := kinds[b.r.IntN(len(kinds))]
		if m.Action == Tap {
			ts := taps[m.Face]
			m = ts[b.r.IntN(len(ts))]
		}
		return m
	})
}

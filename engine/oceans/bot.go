package oceans

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

var (
	_ engine.Agent = (*RandomBot)(nil)
	_ engine.Agent = (*StrongBot)(nil)
)

// decide is the Decide both bots share: a shuffled deck for a commitment,
// and choose's pick for a move. name prefixes errors.
func decide(ctx context.Context, g engine.Game, r *rand.Rand, n engine.Need, name string, choose func(*Game) (Move, error)) (engine.Decision, error) {
	if err := ctx.Err(); err != nil {
		return engine.Decision{}, err
	}
	switch n.Kind {
	case engine.NeedCommit:
		return shuffledDeck(r), nil
	case engine.NeedMove:
		og, ok := g.(*Game)
		if !ok {
			return engine.Decision{}, fmt.Errorf("%s: game is a %T, not an oceans match", name, g)
		}
		m, err := choose(og)
		if err != nil {
			return engine.Decision{}, fmt.Errorf("%s: %w", name, err)
		}
		return engine.Decision{Move: m.Encode()}, nil
	}
	return engine.Decision{}, fmt.Errorf("%s: nothing to decide for a %s need", name, n.Kind)
}

// shuffledDeck is a NeedCommit decision: the fleet deck's leaves in a random
// order (any order is fair: each draw is a joint random pick).
func shuffledDeck(r *rand.Rand) engine.Decision {
	cards := DeckList()
	r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	leaves := make([][]byte, len(cards))
	for i, c := range cards {
		leaves[i] = EncodeCard(c)
	}
	return engine.Decision{Leaves: leaves}
}

// RandomBot plays uniformly random legal moves.
type RandomBot struct {
	r *rand.Rand
}

// NewRandomBot returns a bot that picks uniformly among the legal moves,
// drawing from r.
func NewRandomBot(r *rand.Rand) *RandomBot { return &RandomBot{r: r} }

// Decide implements [engine.Agent].
func (b *RandomBot) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	return decide(ctx, g, b.r, n, "random bot", func(og *Game) (Move, error) {
		moves, err := og.Moves(seat, sec)
		if err != nil {
			return Move{}, err
		}
		if len(moves) == 0 {
			return Move{}, fmt.Errorf("no legal move for %s", seat)
		}
		return moves[b.r.IntN(len(moves))], nil
	})
}

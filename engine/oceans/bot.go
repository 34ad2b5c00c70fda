package oceans

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// asGame returns the ocean-game match behind an engine.Game.
func asGame(g engine.Game) (*Game, error) {
	og, ok := g.(*Game)
	if !ok {
		return nil, fmt.Errorf("oceans bot: game is a %T, not an oceans match", g)
	}
	return og, nil
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
	if err := ctx.Err(); err != nil {
		return engine.Decision{}, err
	}
	switch n.Kind {
	case engine.NeedCommit:
		return shuffledDeck(b.r), nil
	case engine.NeedMove:
		og, err := asGame(g)
		if err != nil {
			return engine.Decision{}, err
		}
		moves, err := og.Moves(seat, sec)
		if err != nil {
			return engine.Decision{}, fmt.Errorf("random bot: %w", err)
		}
		if len(moves) == 0 {
			return engine.Decision{}, fmt.Errorf("random bot: no legal move for %s", seat)
		}
		return engine.Decision{Move: moves[b.r.IntN(len(moves))].Encode()}, nil
	}
	return engine.Decision{}, fmt.Errorf("random bot: nothing to decide for a %s need", n.Kind)
}

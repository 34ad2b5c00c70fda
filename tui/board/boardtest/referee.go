package boardtest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/tui/board"
)

// Own returns the values of k whose slots seat owns: what seat itself
// knows of a match in which k holds every seat's committed values.
func Own(k board.Known, seat engine.Seat) board.Known {
	out := board.Known{}
	for s, v := range k {
		if s.Owner == seat {
			out[s] = v
		}
	}
	return out
}

// Open returns honest openings of slots from k; a slot k has no value for
// fails the test.
func Open(t testing.TB, k board.Known, slots []engine.Slot) []engine.Opened {
	t.Helper()
	out := make([]engine.Opened, len(slots))
	for i, s := range slots {
		v, ok := k.Value(s)
		if !ok {
			t.Fatalf("no value for %s", s)
		}
		out[i] = engine.Opened{Slot: s, Value: v}
	}
	return out
}

// Roll returns the honest input for random need n: n.Count values below
// n.Bound drawn in order from rng. A nil rng or a bound below 1 gives
// zeros.
func Roll(rng *rand.Rand, n engine.Need) engine.Input {
	vals := make([]int, max(n.Count, 0))
	for i := range vals {
		if rng != nil && n.Bound > 0 {
			vals[i] = rng.IntN(n.Bound)
		}
	}
	return engine.Input{Kind: engine.NeedRandom, Seat: engine.NoSeat, Random: vals}
}

// Show gives v a snapshot of g as seat sees it, knowing secrets, the
// players named names (nothing without a view or a game).
func Show(v board.View, g engine.Game, seat engine.Seat, secrets board.Known, names ...string) {
	if v == nil || g == nil {
		return
	}
	v.Show(board.Snapshot{Game: g.Clone(), Seat: seat, Secrets: secrets, Names: names})
}

// Ask shows v the game as [Show] does, then hands it g's current need as a
// request of seat, as the match screen does, and returns the request (nil
// without a view or a game).
func Ask(v board.View, g engine.Game, seat engine.Seat, secrets board.Known, names ...string) *board.Request {
	if v == nil || g == nil {
		return nil
	}
	Show(v, g, seat, secrets, names...)
	req := board.NewRequest(g.Next(), seat, g.Clone(), secrets.Clone())
	v.Ask(req)
	return req
}

// Answer returns the decision the view made for req, or fails the test.
func Answer(t testing.TB, req *board.Request) engine.Decision {
	t.Helper()
	if req == nil {
		t.Fatal("no request")
		return engine.Decision{}
	}
	d, ok := req.Answer()
	if !ok {
		t.Fatalf("no decision was made for %s %s", req.Need.Kind, req.Need.Name)
	}
	return d
}

// Move returns the move the view sent for req, decoded by decode, or fails
// the test.
func Move[M any](t testing.TB, req *board.Request, decode func([]byte) (M, error)) M {
	t.Helper()
	m, err := decode(Answer(t, req).Move)
	if err != nil {
		t.Fatalf("the move sent does not decode: %v", err)
	}
	return m
}

// Refuses runs keys (the player's illegal play) on view v, asked req about
// game g, and checks the refusal: nothing was sent, the prompt says why
// (it holds reason), and the game is as it was.
func Refuses(t testing.TB, v board.View, req *board.Request, g engine.Game, reason string, keys func()) {
	t.Helper()
	before := g.Hash()
	keys()
	if _, ok := req.Answer(); ok {
		t.Fatal("an illegal move was sent")
	}
	if p := v.Prompt(); !strings.Contains(p, reason) {
		t.Fatalf("prompt %q lacks %q", p, reason)
	}
	if g.Hash() != before {
		t.Fatal("the refusal changed the game")
	}
}

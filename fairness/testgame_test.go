package fairness

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/salvo-game/salvo/engine"
)

// peek is a small game made only to exercise every need kind the referee
// drives. Each seat commits four hidden digits; a joint roll picks who
// starts; every seat makes a hidden choice; then in turn each seat rolls two
// dice and asks for one of the other's hidden digits, which the other must
// answer truthfully (an Auto move opening that digit); after four asks both
// seats open everything left and the engine checks every digit is 0..9.
// The higher total of asked digits and dice wins.
type peek struct {
	seats   int
	step    int // 0,1 commits; 2 first-player roll; 3 choice; then turns
	turn    engine.Seat
	asks    int
	asked   [2][4]bool
	pending int // -1, or the digit index asked and not yet answered
	dice    []int
	score   [2]int
	choices [2]int
	revealN int
	done    bool
	winner  engine.Seat
}

var peekSpec = engine.Spec{
	Name: "peek", Title: "Peek (test game)", Rules: "peek/1", Variants: []string{"standard"},
	MinSeats: 2, MaxSeats: 2,
	New: func(s engine.Setup) (engine.Game, error) { return &peek{seats: s.Seats, pending: -1}, nil },
}

func peekSpecs(name string) (engine.Spec, bool) { return peekSpec, name == "peek" }

type peekAsk struct {
	Ask int `json:"ask"`
}

type peekAnswer struct {
	Value int `json:"value"`
}

func (g *peek) Next() engine.Need {
	both := []engine.Seat{0, 1}
	switch {
	case g.done:
		return engine.Need{}
	case g.step < 2:
		return engine.Need{Kind: engine.NeedCommit, Seat: engine.Seat(g.step), Name: "digits", Size: 4}
	case g.step == 2:
		return engine.Need{Kind: engine.NeedRandom, Seat: engine.NoSeat, Seats: both, Name: "first", Count: 1, Bound: 2}
	case g.step == 3:
		return engine.Need{Kind: engine.NeedChoice, Seats: both, Name: "pick"}
	case g.asks == 4:
		s := engine.Seat(g.revealN)
		var open []engine.Slot
		for i := 0; i < 4; i++ {
			if !g.asked[1-s][i] {
				open = append(open, engine.Slot{Owner: s, Name: "digits", Index: i})
			}
		}
		return engine.Need{Kind: engine.NeedOpen, Seat: s, Open: open}
	case g.pending >= 0:
		def := 1 - g.turn
		return engine.Need{Kind: engine.NeedMove, Seat: def, Auto: true, Open: []engine.Slot{{Owner: def, Name: "digits", Index: g.pending}}}
	case g.dice == nil:
		return engine.Need{Kind: engine.NeedRandom, Seat: g.turn, Seats: both, Name: fmt.Sprintf("dice %d", g.asks), Count: 2, Bound: 6}
	}
	return engine.Need{Kind: engine.NeedMove, Seat: g.turn}
}

func (g *peek) Apply(in engine.Input) ([]engine.Event, error) {
	n := g.Next()
	if in.Kind != n.Kind {
		return nil, engine.Illegal("got %s, want %s", in.Kind, n.Kind)
	}
	switch n.Kind {
	case engine.NeedCommit:
		g.step++
	case engine.NeedRandom:
		if g.step == 2 {
			g.turn = engine.Seat(in.Random[0])
			g.step++
			return nil, nil
		}
		g.dice = in.Random
	case engine.NeedChoice:
		for i, c := range in.Choices {
			if len(c) != 1 || c[0] > 3 {
				return nil, &engine.Fault{Seat: engine.Seat(i), Err: engine.Illegal("choice %x is not 0..3", c)}
			}
		}
		for i, c := range in.Choices {
			g.choices[i] = int(c[0])
		}
		g.step++
	case engine.NeedMove:
		if n.Auto {
			var a peekAnswer
			if err := engine.DecodeMove(in.Move, &a); err != nil {
				return nil, err
			}
			if len(in.Opened) != 1 || len(in.Opened[0].Value) != 1 {
				return nil, engine.Illegal("answer must open the digit asked")
			}
			if int(in.Opened[0].Value[0]) != a.Value {
				return nil, engine.Illegal("answered %d, the committed digit is %d", a.Value, in.Opened[0].Value[0])
			}
			g.score[g.turn] += a.Value + g.dice[0] + g.dice[1]
			g.asked[g.turn][g.pending] = true
			g.pending, g.dice = -1, nil
			g.asks++
			g.turn = 1 - g.turn
			return []engine.Event{{Kind: "answer", Text: fmt.Sprintf("answered %d", a.Value)}}, nil
		}
		var a peekAsk
		if err := engine.DecodeMove(in.Move, &a); err != nil {
			return nil, err
		}
		if a.Ask < 0 || a.Ask > 3 || g.asked[g.turn][a.Ask] {
			return nil, engine.Illegal("cannot ask for digit %d", a.Ask)
		}
		g.pending = a.Ask
	case engine.NeedOpen:
		for _, o := range in.Opened {
			if len(o.Value) != 1 || o.Value[0] > 9 {
				return nil, &engine.Fault{Seat: in.Seat, Err: engine.Illegal("digit %x is not 0..9", o.Value)}
			}
		}
		g.revealN++
		if g.revealN == 2 {
			g.done = true
			g.winner = 0
			if g.score[1] > g.score[0] {
				g.winner = 1
			}
		}
	}
	return nil, nil
}

func (g *peek) MustOpen(seat engine.Seat, move []byte) ([]engine.Slot, error) {
	n := g.Next()
	if n.Kind == engine.NeedMove && n.Auto {
		return n.Open, nil
	}
	return nil, nil
}

func (g *peek) Hash() engine.Digest {
	h := engine.NewHasher("peek").Int(g.step).Int(int(g.turn)).Int(g.asks).Int(g.pending).Ints(g.dice...).Ints(g.score[:]...).Ints(g.choices[:]...).Int(g.revealN).Bool(g.done)
	for s := range g.asked {
		for _, a := range g.asked[s] {
			h.Bool(a)
		}
	}
	return h.Sum()
}

func (g *peek) Outcome() engine.Outcome {
	if !g.done {
		return engine.Outcome{}
	}
	return engine.Outcome{Done: true, Winners: []engine.Seat{g.winner}, Reason: "higher total"}
}

func (g *peek) Clone() engine.Game {
	c := *g
	c.dice = append([]int(nil), g.dice...)
	return &c
}

func (g *peek) Answer(seat engine.Seat, n engine.Need, sec engine.Secrets) ([]byte, error) {
	v, ok := sec.Value(n.Open[0])
	if !ok {
		return nil, fmt.Errorf("no secret for %s", n.Open[0])
	}
	return engine.EncodeMove(peekAnswer{Value: int(v[0])})
}

// peekBot plays peek at random.
type peekBot struct {
	r      *rand.Rand
	digits []byte // overrides the committed digits when set (a cheater's)
	// meddle makes the bot scribble on the game and the secrets it is
	// shown once it has decided, as a careless agent still running on its
	// goroutine might while the referee goes on.
	meddle bool
}

func (b *peekBot) Immediate() bool { return true }

func (b *peekBot) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	switch n.Kind {
	case engine.NeedCommit:
		leaves := make([][]byte, n.Size)
		for i := range leaves {
			leaves[i] = []byte{byte(b.r.IntN(10))}
			if b.digits != nil {
				leaves[i] = []byte{b.digits[i]}
			}
		}
		return engine.Decision{Leaves: leaves}, nil
	case engine.NeedChoice:
		return engine.Decision{Choice: []byte{byte(b.r.IntN(4))}}, nil
	}
	p := g.(*peek)
	for {
		i := b.r.IntN(4)
		if !p.asked[seat][i] {
			if b.meddle {
				p.score[seat] += 100
				if k, ok := sec.(engine.Known); ok {
					clear(k)
				}
			}
			return engine.Decision{Move: engine.MustEncodeMove(peekAsk{Ask: i})}, nil
		}
	}
}

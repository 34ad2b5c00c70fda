package fairness

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// blockedAgent is a player who has not answered yet: it says when it is
// asked, and returns only when its question is withdrawn (ctx ends).
type blockedAgent struct {
	asked     chan engine.Need
	withdrawn chan error
}

func (b *blockedAgent) Decide(ctx context.Context, g engine.Game, seat engine.Seat, sec engine.Secrets, n engine.Need) (engine.Decision, error) {
	b.asked <- n
	<-ctx.Done()
	b.withdrawn <- ctx.Err()
	return engine.Decision{}, ctx.Err()
}

// An early question that a message makes wrong is withdrawn: the joiner
// is asked for its digits at once, while the host has sent nothing; the
// host then resigns instead of committing, and the joiner's question is
// cancelled (its agent sees its context end) as the match ends, with no
// answer ever used.
func TestEarlyQuestionWithdrawnWhenTheHostResigns(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	host, joiner := fairnesstest.Pipe()
	defer host.Close()
	m1, err := NewMatch(peekSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	agent := &blockedAgent{asked: make(chan engine.Need, 4), withdrawn: make(chan error, 4)}
	ref, err := NewReferee(Config{Match: m1, Seat: 1, Key: keys[1], Agent: agent, Transport: joiner, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	type run struct {
		res *Result
		err error
	}
	done := make(chan run, 1)
	go func() {
		res, err := ref.Run(ctx)
		done <- run{res, err}
	}()
	n := <-agent.asked
	if n.Kind != engine.NeedCommit || n.Seat != 1 || n.Name != "digits" {
		t.Fatalf("the joiner was asked early for %+v", n)
	}
	m0, err := NewMatch(peekSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	in := WireInput{T: InResign}
	if _, err := m0.Stage(0, in); err != nil {
		t.Fatal(err)
	}
	e, err := m0.Seal(0, []WireInput{in}, keys[0])
	if err != nil {
		t.Fatal(err)
	}
	b, err := EncodeEnvelope(e)
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Send(ctx, b); err != nil {
		t.Fatal(err)
	}
	if err := <-agent.withdrawn; !errors.Is(err, context.Canceled) {
		t.Fatalf("the early question ended with %v", err)
	}
	r := <-done
	if r.err != nil || !r.res.Outcome.Done || len(r.res.Outcome.Winners) != 1 || r.res.Outcome.Winners[0] != 1 {
		t.Fatalf("the match: %v %+v", r.err, r.res)
	}
	if len(agent.asked) != 0 {
		t.Fatal("the joiner was asked again")
	}
}

// predictOwn predicts nothing across what the seat may see: with a roll,
// a move or an opening between, no early question is asked; across the
// others' commitments it reaches the seat's own.
func TestPredictOwnOnlyAcrossHiddenInputs(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	m, err := NewMatch(peekSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	ps := predictOwn(m, 1, next(t, m))
	if len(ps) != 1 || ps[0].st.Kind != InCommit || ps[0].st.Need.Seat != 1 || ps[0].game == nil || ps[0].game.Next().Seat != 1 {
		t.Fatalf("the joiner's set-up: %+v", ps)
	}
	if m.Game().Next().Seat != 0 {
		t.Fatal("the prediction changed the match's own game")
	}
	if ps := predictOwn(m, 0, next(t, m)); len(ps) != 0 {
		t.Fatal("a prediction for the seat whose turn it is")
	}
	// After both commitments comes a roll: nobody's next decision is
	// known while it is pending.
	bot := &peekBot{r: rand.New(rand.NewPCG(1, 1))}
	for s := range engine.Seat(2) {
		for _, in := range []WireInput{{T: InHello, Tip: hexDigest(Digest{1}), Links: 4}, commitOf(t, m, s, bot)} {
			if _, err := m.Stage(s, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	if st, _ := m.Next(); st.Kind != InShare {
		t.Fatalf("after the set-up: %+v", st)
	}
	for s := range engine.Seat(2) {
		if ps := predictOwn(m, s, next(t, m)); len(ps) != 0 {
			t.Fatalf("%s predicted across a roll: %+v", s, ps)
		}
	}
}

func commitOf(t *testing.T, m *Match, s engine.Seat, bot *peekBot) WireInput {
	t.Helper()
	n := m.Game().Next()
	d, err := bot.Decide(context.Background(), m.Game(), s, nil, n)
	if err != nil {
		t.Fatal(err)
	}
	v, err := NewVector(m.ID(), s, n.Name, d.Leaves)
	if err != nil {
		t.Fatal(err)
	}
	return WireInput{T: InCommit, Name: n.Name, Size: v.Size(), Root: hexDigest(v.Root())}
}

func next(t *testing.T, m *Match) Step {
	t.Helper()
	st, ok := m.Next()
	if !ok {
		t.Fatal("the match is over")
	}
	return st
}

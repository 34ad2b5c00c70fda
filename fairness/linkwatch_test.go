package fairness

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// outagePipe is a pipe end whose link goes down for dur after it received
// `after` frames: frames that arrive meanwhile are held until it is back,
// and LinkDown says so, as a reconnecting transport between streams does.
type outagePipe struct {
	*fairnesstest.PipeEnd
	after int
	dur   time.Duration

	mu        sync.Mutex
	got       int
	downUntil time.Time
}

func (p *outagePipe) Recv(ctx context.Context) ([]byte, error) {
	b, err := p.PipeEnd.Recv(ctx)
	p.mu.Lock()
	p.got++
	if p.got == p.after {
		p.downUntil = time.Now().Add(p.dur)
	}
	hold := time.Until(p.downUntil)
	p.mu.Unlock()
	if hold > 0 && err == nil {
		select {
		case <-time.After(hold):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return b, err
}

func (p *outagePipe) LinkDown() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return time.Now().Before(p.downUntil)
}

// An outage several times longer than the step timeout does not forfeit
// the seat the match waits for: while the link is down only the
// transport's give-up counts.
func TestOutageDoesNotCountAgainstTheStepTimeout(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	dir := t.TempDir()
	a, b := fairnesstest.Pipe()
	down := &outagePipe{PipeEnd: a, after: 2, dur: 1200 * time.Millisecond}
	transports := [2]Transport{down, b}
	timeouts := [2]time.Duration{300 * time.Millisecond, 20 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out [2]side
	var wg sync.WaitGroup
	for s := range 2 {
		m, err := NewMatch(peekSpec, h)
		if err != nil {
			t.Fatal(err)
		}
		out[s].path = filepath.Join(dir, fmt.Sprintf("seat%d.jsonl", s))
		tw, err := CreateTranscript(out[s].path, h)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := NewReferee(Config{Match: m, Seat: engine.Seat(s), Key: keys[s], Transport: transports[s], Transcript: tw, Timeout: timeouts[s],
			Agent: &peekBot{r: rand.New(rand.NewPCG(5, uint64(s)))}})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[s].res, out[s].err = ref.Run(ctx)
			tw.Close()
		}()
	}
	wg.Wait()
	down.mu.Lock()
	got := down.got
	down.mu.Unlock()
	if got <= down.after {
		t.Fatalf("seat 0 received %d frames: the outage never happened", got)
	}
	for s := range 2 {
		if out[s].err != nil || out[s].res.Closing != nil || !out[s].res.Outcome.Done {
			t.Fatalf("seat %d: %v %+v", s, out[s].err, out[s].res)
		}
	}
}

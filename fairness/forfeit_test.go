package fairness

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// cutPipe is seat 1's end of a link that is cut towards seat 1 after
// seat 1 received n frames: seat 0's later frames are held on the way
// (neither side knows), and once seat 0's match has ended, Recv delivers
// what was held, then reports the closing record seat 0 hands over, as
// the resume protocol does (the missing envelopes, then the end frame).
// Seat 1 holds no message of its own that seat 0 never got, but those it
// signs after the end arrived (EndSeen). Recv is called from one
// goroutine.
type cutPipe struct {
	*fairnesstest.PipeEnd
	n       int
	got     int
	held    [][]byte
	closing *Closing
	ended   chan *Closing

	mu      sync.Mutex
	top     SeqMark // how far the match went, by what was sent or received
	endAt   uint64  // top when the end arrived
	endSeen bool
}

func (p *cutPipe) Send(ctx context.Context, b []byte) error {
	p.see(b)
	return p.PipeEnd.Send(ctx, b)
}

func (p *cutPipe) Recv(ctx context.Context) ([]byte, error) {
	for p.closing == nil {
		select {
		case b := <-p.Inbox():
			p.see(b)
			if p.got < p.n {
				p.got++
				return b, nil
			}
			p.held = append(p.held, b)
		case c := <-p.ended:
			for _, b := range p.drain() {
				p.see(b)
				p.held = append(p.held, b)
			}
			p.mu.Lock()
			p.closing, p.endAt, p.endSeen = c, p.top.Top(), true
			p.mu.Unlock()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if len(p.held) > 0 {
		b := p.held[0]
		p.held = p.held[1:]
		return b, nil
	}
	return nil, fmt.Errorf("transport: %w", &EndedThere{Closing: p.closing})
}

func (p *cutPipe) EndSeenAt() (uint64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.endAt, p.endSeen
}

// see notes the seq of an envelope sent or received.
func (p *cutPipe) see(b []byte) {
	var e struct {
		Seq uint64 `json:"seq"`
	}
	if json.Unmarshal(b, &e) != nil {
		return
	}
	p.mu.Lock()
	p.top.See(e.Seq)
	p.mu.Unlock()
}

// drain takes the frames waiting in the inbox.
func (p *cutPipe) drain() [][]byte {
	var out [][]byte
	for {
		select {
		case b := <-p.Inbox():
			out = append(out, b)
		default:
			return out
		}
	}
}

// playCut plays a peek match whose link is cut after seat 1 received n
// frames: seat 0 gives up after a short timeout and records seat 1's
// forfeit; then seat 1's transport hands over seat 0's closing record,
// altered by edit if it is not nil.
func playCut(t *testing.T, n int, edit func(*Closing)) [2]side {
	t.Helper()
	return playCutLink(t, n, edit, time.Minute, true)
}

// playCutLink is playCut with seat 1's give-up time, and without handing
// seat 0's closing record over to seat 1 unless handover is set: with a
// short give-up time and no handover, each side records the other's
// forfeit.
func playCutLink(t *testing.T, n int, edit func(*Closing), giveUp1 time.Duration, handover bool) [2]side {
	t.Helper()
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	dir := t.TempDir()
	a, b := fairnesstest.Pipe()
	cut := &cutPipe{PipeEnd: b, n: n, ended: make(chan *Closing, 1)}
	transports := [2]Transport{a, cut}
	timeouts := [2]time.Duration{300 * time.Millisecond, giveUp1}
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
			if s == 0 && handover && out[s].res != nil && out[s].res.Closing != nil {
				c := *out[s].res.Closing
				if edit != nil {
					edit(&c)
				}
				cut.ended <- &c
			}
		}()
	}
	wg.Wait()
	return out
}

// After a cut longer than the give-up time, the side that comes back
// records the other side's signed forfeit record instead of claiming the
// other's forfeit: both transcripts end alike and audit alike. (A record
// dated before a message the late side holds is refused:
// TestAttackForfeitDatedBeforeOurMessageIsRefused.)
func TestForfeitRecordedThereEndsBothTranscriptsAlike(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("cut after %d frames", n), func(t *testing.T) {
			out := playCut(t, n, nil)
			for s := range 2 {
				if out[s].err != nil {
					t.Fatalf("seat %d: %v", s, out[s].err)
				}
			}
			c0, c1 := out[0].res.Closing, out[1].res.Closing
			if c0 == nil || c0.Closing != CloseTimeout || c0.Seat != 1 {
				t.Fatalf("seat 0 closing %+v, want a timeout of seat 1", c0)
			}
			if c1 == nil || *c1 != *c0 {
				t.Fatalf("seat 1 closing %+v, want seat 0's own record %+v", c1, c0)
			}
			for s := range 2 {
				if w := out[s].res.Outcome.Winners; len(w) != 1 || w[0] != 0 {
					t.Fatalf("seat %d: winners %v, want seat 0", s, w)
				}
				rep := auditFile(t, out[s].path)
				if rep.Verdict != Forfeit || rep.Outcome.Winners[0] != 0 || !strings.HasPrefix(rep.Detail, "seat 1 bob") {
					t.Fatalf("audit of seat %d's transcript: %s", s, rep.Summary())
				}
				t.Logf("seat %d: %s", s, rep.Summary())
			}
		})
	}
}

// A closing record that does not hold up is refused: the late side then
// records the connection loss itself, naming what was wrong.
func TestForeignClosingIsChecked(t *testing.T) {
	cases := map[string]func(*Closing){
		"edited after signing":  func(c *Closing) { c.Detail = "you lost" },
		"blames the writer":     func(c *Closing) { c.Seat = 0 },
		"another match":         func(c *Closing) { c.Match = strings.Repeat("0", 64) },
		"after a later message": func(c *Closing) { c.Seq += 5 },
	}
	for name, edit := range cases {
		t.Run(name, func(t *testing.T) {
			out := playCut(t, 2, edit)
			c1 := out[1].res.Closing
			if out[1].err != nil || c1 == nil || c1.Closing != CloseAbandoned || c1.Seat != 0 || !strings.Contains(c1.Detail, "refused") {
				t.Fatalf("seat 1: %v, closing %+v", out[1].err, c1)
			}
		})
	}
}

// A record of our forfeit counts only at a step where the match waited
// for us: one dated while the match waited for its writer is no give-up
// on us.
func TestAdoptNeedsTheMatchToWaitForTheBlamedSeat(t *testing.T) {
	keys := testKeys(t, 2)
	h := testHeader(t, peekSpec, keys)
	m, err := NewMatch(peekSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	first, ok := m.Next()
	if !ok {
		t.Fatal("the match waits for nobody")
	}
	waited := first.Seat
	for _, tc := range []struct {
		name   string
		blamed engine.Seat
		ok     bool
	}{
		{"the match waited for the blamed seat", waited, true},
		{"the match waited for the writer", 1 - waited, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			end, _ := fairnesstest.Pipe()
			ref, _ := newAdopter(t, h, keys, tc.blamed, end)
			c := &Closing{Closing: CloseAbandoned, Match: h.Match, Seat: int(tc.blamed), Seq: 0, Detail: "gone"}
			if err := c.Sign(keys[1-tc.blamed]); err != nil {
				t.Fatal(err)
			}
			err = ref.adopt(c)
			if (err == nil) != tc.ok {
				t.Fatalf("adopt: %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

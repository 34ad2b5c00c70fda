package fairness

import (
	"context"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/libp2p/go-libp2p/core/crypto"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness/fairnesstest"
)

// endSeenPipe is a pipe end whose other side's end arrived when this
// side had message at.
type endSeenPipe struct {
	*fairnesstest.PipeEnd
	at uint64
}

func (p endSeenPipe) EndSeenAt() (uint64, bool) { return p.at, true }

// Regression test for issue 12, class 8: a forfeit record dated before a
// message the late side held when the record arrived (one it signed,
// which the other side says it never got, or one it received) is refused,
// since that message refutes it, even where the match waited for the
// blamed seat then. Only a message of its own signed after the record
// arrived (an automatic step played before the referee read the end) may
// follow it. (A late side that refuses records the connection loss,
// naming the refusal: TestForeignClosingIsChecked.)
func TestAttackForfeitDatedBeforeOurMessageIsRefused(t *testing.T) {
	at := func(n uint64) *uint64 { return &n }
	for _, tc := range []struct {
		name   string
		seenAt *uint64 // when the end arrived; nil: the transport does not say
		ok     bool
	}{
		{"a transport that does not say when the end came", nil, false},
		{"our message was out before the end came", at(1), false},
		{"our message was signed after the end came", at(0), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			keys := testKeys(t, 2)
			h := testHeader(t, peekSpec, keys)
			end, _ := fairnesstest.Pipe()
			var tr Transport = end
			if tc.seenAt != nil {
				tr = endSeenPipe{end, *tc.seenAt}
			}
			// The late side is the seat the match first waits for; it
			// signs its first message, which the other side says it never
			// got.
			m, err := NewMatch(peekSpec, h)
			if err != nil {
				t.Fatal(err)
			}
			first, _ := m.Next()
			late := first.Seat
			ref, m := newAdopter(t, h, keys, late, tr)
			ctx := context.Background()
			if stop, err := ref.local(ctx, first, nil); stop || err != nil {
				t.Fatalf("own first input: %v, %v", stop, err)
			}
			if err := ref.flush(ctx); err != nil || m.Seq() != 1 {
				t.Fatalf("own first message: %v (seq %d)", err, m.Seq())
			}
			c := &Closing{Closing: CloseAbandoned, Match: h.Match, Seat: int(late), Seq: 0, Detail: "gone before its first message"}
			if err := c.Sign(keys[1-late]); err != nil {
				t.Fatal(err)
			}
			err = ref.adopt(c)
			if tc.ok {
				if err != nil || ref.res.Closing != c {
					t.Fatalf("adopt: %v", err)
				}
				return
			}
			if !errors.Is(err, errClosingMisfit) || !strings.Contains(err.Error(), "before message 1") {
				t.Fatalf("adopt of a record dated before our own message: %v", err)
			}
			if ref.res.Closing != nil {
				t.Fatalf("the refused record was recorded: %+v", ref.res.Closing)
			}
		})
	}
}

// newAdopter is a referee of seat on a new match of h over tr, to hand
// closing records to; its transcript is closed with the test.
func newAdopter(t *testing.T, h Header, keys []crypto.PrivKey, seat engine.Seat, tr Transport) (*Referee, *Match) {
	t.Helper()
	m, err := NewMatch(peekSpec, h)
	if err != nil {
		t.Fatal(err)
	}
	tw, err := CreateTranscript(filepath.Join(t.TempDir(), "t.jsonl"), h)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tw.Close() })
	ref, err := NewReferee(Config{Match: m, Seat: seat, Key: keys[seat], Transport: tr, Transcript: tw,
		Agent: &peekBot{r: rand.New(rand.NewPCG(1, 1))}})
	if err != nil {
		t.Fatal(err)
	}
	return ref, m
}

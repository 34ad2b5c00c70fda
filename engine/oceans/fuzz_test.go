package oceans

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

// FuzzDecodeMove feeds arbitrary bytes to the move decoder: it must never
// panic, must reject with ErrIllegal, and what it accepts must re-encode to
// a move that decodes to the same value.
func FuzzDecodeMove(f *testing.F) {
	for _, s := range []string{
		`{"kind":"place","leaf":3,"ocean":2}`,
		`{"kind":"discard","leaf":4,"ocean":0,"targets":[1,2]}`,
		`{"kind":"attack","leaf":0,"ocean":4}`,
		`{"kind":"zero","leaf":28,"ocean":0}`,
		`{"kind":"target","leaf":99}`,
		`{"kind":"deploy","leaf":-1,"ocean":9}`,
		`{}`, `null`, `[]`, `{"kind":"place"} {}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMove(b)
		if err != nil {
			if !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("error %v does not wrap ErrIllegal", err)
			}
			return
		}
		m2, err := DecodeMove(m.Encode())
		if err != nil {
			t.Fatalf("accepted move %+v does not survive re-encoding: %v", m, err)
		}
		if !bytes.Equal(m.Encode(), m2.Encode()) {
			t.Fatalf("re-encoding changed %+v into %+v", m, m2)
		}
	})
}

// FuzzDecodeCard feeds arbitrary leaf values to the card decoder.
func FuzzDecodeCard(f *testing.F) {
	for c := range numCards + 1 {
		f.Add([]byte{byte(c)})
	}
	f.Add([]byte{})
	f.Add([]byte{1, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := DecodeCard(b)
		if err != nil {
			if !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("error %v does not wrap ErrIllegal", err)
			}
			return
		}
		if !c.Valid() || !bytes.Equal(EncodeCard(c), b) {
			t.Fatalf("accepted %x as %v", b, c)
		}
	})
}

// FuzzApplyMove plays a random match to a random point and feeds the
// fuzzed bytes as a move (with the openings MustOpen asks for, if any):
// Apply must never panic, and a rejected move must leave the hash alone.
func FuzzApplyMove(f *testing.F) {
	f.Add(uint64(1), uint16(40), []byte(`{"kind":"place","leaf":3,"ocean":2}`))
	f.Add(uint64(2), uint16(90), []byte(`{"kind":"attack","leaf":0,"ocean":1}`))
	f.Add(uint64(3), uint16(200), []byte(`{"kind":"discard","leaf":7,"ocean":0,"targets":[5]}`))
	f.Add(uint64(4), uint16(120), []byte(`{"kind":"zero","leaf":28,"ocean":0}`))
	f.Fuzz(func(t *testing.T, seed uint64, steps uint16, move []byte) {
		h := newHarness(t, seed, NewRandomBot(rand.New(rand.NewPCG(seed, 1))), NewRandomBot(rand.New(rand.NewPCG(seed, 2))))
		for i := 0; i < int(steps) && h.Game.Next().Kind != engine.NeedNone; i++ {
			if _, err := h.Step(); err != nil {
				t.Fatal(err)
			}
		}
		for s := range engine.Seat(2) {
			in := engine.Input{Kind: engine.NeedMove, Seat: s, Move: move}
			if slots, err := h.Game.MustOpen(s, move); err == nil {
				in.Opened = h.openings(slots)
			}
			before := h.Game.Hash()
			if _, err := h.Game.Apply(in); err != nil && h.Game.Hash() != before {
				t.Fatalf("rejected move changed the state: %v", err)
			}
			checkInvariants(t, h.Game)
		}
	})
}

// honestMoves are moves as an honest peer encodes them.
var honestMoves = [][]byte{
	Move{Kind: Deploy, Leaf: 3, Ocean: 1}.Encode(), Move{Kind: Place, Leaf: 11, Ocean: 4}.Encode(),
	Move{Kind: Discard, Leaf: 7, Targets: []int{5, 12}}.Encode(), Move{Kind: Attack, Ocean: 2}.Encode(),
	Move{Kind: Zero, Leaf: 1}.Encode(), Move{Kind: Target, Leaf: 21}.Encode(),
}

// FuzzReadMove holds the move reader (DecodeMove's fast path) to the
// strict decoder it speeds up: the same move or the same error.
func FuzzReadMove(f *testing.F) {
	for _, b := range enginetest.MoveReaderSeeds(honestMoves...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		enginetest.SameAsDecodeMove(t, b, readMove)
		enginetest.SameAsDecodeMoveWith(t, b, decodeFields, readMove)
	})
}

func TestReadMoveTakesHonestMoves(t *testing.T) {
	enginetest.CheckMoveReader(t, honestMoves, readMove)
}

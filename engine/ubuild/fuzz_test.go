package ubuild

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/enginetest"
)

func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"C-2", "c2", "J-10", "A-0", "K-1", "A--1", "", "A-١"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCell(s)
		if err != nil {
			if !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("error %v does not wrap ErrIllegal", err)
			}
			return
		}
		if !c.Valid() {
			t.Fatalf("ParseCell(%q) = invalid cell %d", s, c)
		}
		if back, err := ParseCell(c.String()); err != nil || back != c {
			t.Fatalf("%q -> %s -> %d, %v", s, c, back, err)
		}
	})
}

func FuzzDecodeFire(f *testing.F) {
	f.Add([]byte(`{"ship":"battleship","shots":["C-2","C-4"]}`))
	f.Add([]byte(`{"shots":["C-2"]}`))
	f.Add([]byte(`{"ship":"ptboat","shots":["j10","A1"]}`))
	f.Add([]byte(`{"ship":"x","shots":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ship, shots, err := DecodeFire(b)
		if err != nil {
			if !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("error %v does not wrap ErrIllegal", err)
			}
			return
		}
		if ship != NoShip && !ship.Valid() || len(shots) == 0 || len(shots) > MaxWeapons {
			t.Fatalf("decoded ship %d with %d shots", ship, len(shots))
		}
		enc, err := EncodeFire(ship, shots)
		if err != nil {
			t.Fatal(err)
		}
		ship2, shots2, err := DecodeFire(enc)
		if err != nil || ship2 != ship || !equalCells(shots, shots2) {
			t.Fatalf("re-encoded %s decodes to %v %v %v", enc, ship2, shots2, err)
		}
	})
}

func equalCells(a, b []Cell) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func FuzzDecodeAnswer(f *testing.F) {
	f.Add([]byte(`{"results":[{"cell":"C-2","result":"miss"},{"cell":"C-4","result":"hit","ship":"carrier"},{"cell":"E-5","result":"sunk","ship":"ptboat"}]}`))
	f.Add([]byte(`{"results":[{"cell":"C-2","result":"miss","ship":"carrier"}]}`))
	f.Add([]byte(`{"results":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rs, err := DecodeAnswer(b)
		if err != nil {
			if !errors.Is(err, engine.ErrIllegal) {
				t.Fatalf("error %v does not wrap ErrIllegal", err)
			}
			return
		}
		for _, r := range rs {
			if !r.Cell.Valid() || r.Result < Miss || r.Result > Sunk || (r.Result == Miss) != (r.Ship == NoShip) {
				t.Fatalf("decoded %+v", r)
			}
		}
		enc, err := encodeAnswer(rs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeAnswer(enc)
		if err != nil || len(back) != len(rs) {
			t.Fatalf("re-encoded %s: %v", enc, err)
		}
		for i := range rs {
			if back[i] != rs[i] {
				t.Fatalf("re-encoded %+v as %+v", rs[i], back[i])
			}
		}
	})
}

// fuzzGames returns matches waiting for a volley and for an answer, in the
// standard and custom variants.
func fuzzGames(t testing.TB) []*match {
	var out []*match
	w := [NumShips]int{5, 4, 4, 4, 3}
	for _, v := range []string{Standard, Custom, Classic} {
		m := standardMatch(t, v, w, w, 0)
		out = append(out, m)
		m2 := standardMatch(t, v, w, w, 0)
		if v == Classic {
			m2.fire(0, NoShip, "C-4")
		} else {
			m2.volley(0, Battleship, "C-4", "J-6", "A-1")
			m2.volley(1, Carrier, "B-1")
			m2.fire(0, Battleship, "C-2", "D-4", "J-7", "E-9")
		}
		out = append(out, m2)
	}
	return out
}

// FuzzApply feeds arbitrary bytes as a move, with the openings MustOpen asks
// for (values taken from the fuzz input when it is long enough): Apply never
// panics, and a rejected input leaves the hash unchanged.
func FuzzApply(f *testing.F) {
	f.Add(uint8(0), []byte(`{"ship":"battleship","shots":["C-2","C-4"]}`), []byte{})
	f.Add(uint8(1), []byte(`{"results":[{"cell":"C-2","result":"miss"},{"cell":"D-4","result":"hit","ship":"carrier"},{"cell":"J-7","result":"hit","ship":"battleship"},{"cell":"E-9","result":"hit","ship":"ptboat"}]}`), []byte{})
	f.Add(uint8(3), []byte(`{"results":[{"cell":"C-2","result":"miss"},{"cell":"D-4","result":"hit","ship":"carrier"},{"cell":"J-7","result":"sunk","ship":"battleship"},{"cell":"E-9","result":"hit","ship":"ptboat"}]}`), []byte{0, 2, 1, 5, 1})
	f.Add(uint8(4), []byte(`{"shots":["A-1"]}`), []byte{})
	f.Add(uint8(2), []byte(`{"ship":"destroyer","shots":["A-1"]}`), []byte{9})
	games := fuzzGames(f)
	f.Fuzz(func(t *testing.T, which uint8, move, vals []byte) {
		m := games[int(which)%len(games)]
		g := m.Game.Copy()
		n := g.Next()
		in := engine.Input{Kind: n.Kind, Seat: n.Seat, Move: move}
		if slots, err := g.MustOpen(n.Seat, move); err == nil {
			in.Opened = m.open(n.Seat, slots)
			for i := range in.Opened {
				if i < len(vals) {
					in.Opened[i].Value = vals[i : i+1]
				}
			}
		}
		before := g.Hash()
		if _, err := g.Apply(in); err != nil {
			var fl *engine.Fault
			if !errors.Is(err, engine.ErrIllegal) && !errors.As(err, &fl) {
				t.Fatalf("error %v neither illegal nor a fault", err)
			}
			if g.Hash() != before {
				t.Fatal("rejected input changed the hash")
			}
			return
		}
		checkInvariants(t, g)
		if bytes.Equal(move, nil) {
			t.Fatal("accepted an empty move")
		}
	})
}

// honestFires and honestAnswers are moves as an honest peer encodes them.
var (
	honestFires   = [][]byte{[]byte(`{"ship":"battleship","shots":["C-2","C-4"]}`), []byte(`{"shots":["J-10"]}`)}
	honestAnswers = [][]byte{
		[]byte(`{"results":[{"cell":"C-2","result":"miss"},{"cell":"C-4","result":"hit","ship":"carrier"},{"cell":"E-5","result":"sunk","ship":"ptboat"}]}`),
		[]byte(`{"results":[]}`),
	}
)

// FuzzReadMove holds the move readers (the decoders' fast path) to the
// strict decoder they speed up: the same move or the same error.
func FuzzReadMove(f *testing.F) {
	for _, b := range enginetest.MoveReaderSeeds(append(slices.Clone(honestFires), honestAnswers...)...) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		enginetest.SameAsDecodeMove(t, b, readFire)
		enginetest.SameAsDecodeMove(t, b, readAnswer)
	})
}

func TestReadMoveTakesHonestMoves(t *testing.T) {
	enginetest.CheckMoveReader(t, honestFires, readFire)
	enginetest.CheckMoveReader(t, honestAnswers, readAnswer)
}

// FuzzQuickMoves holds the quick decoders of volleys and answers to the
// decoders they speed up: whatever they take, decodeFire and DecodeAnswer
// (by their reflecting path) read as the same volley or answer.
func FuzzQuickMoves(f *testing.F) {
	for _, b := range enginetest.MoveReaderSeeds(append(slices.Clone(honestFires), honestAnswers...)...) {
		f.Add(b)
	}
	f.Add([]byte(`{"ship":"","shots":["a1","A-01"]}`))
	f.Add([]byte(`{"results":[{"cell":"c2","result":"miss","ship":""},{"result":"hit","cell":"J-10","ship":"ptboat"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkQuickMoves(t, b)
	})
}

// checkQuickMoves fails t when a quick decoder takes b and the decoder
// it speeds up does not read it as the same move, and reports whether one
// took it.
func checkQuickMoves(t *testing.T, b []byte) bool {
	took := false
	if f, ok := quickFire(b); ok {
		slow, err := readFireMove(b)
		if err != nil || !reflect.DeepEqual(f, slow) {
			t.Fatalf("%q: quickFire reads %+v, decodeFire %+v, %v", b, f, slow, err)
		}
		took = true
	}
	if rs, ok := quickAnswer(b); ok {
		slow, err := readAnswerMove(b)
		if err != nil || !reflect.DeepEqual(rs, slow) {
			t.Fatalf("%q: quickAnswer reads %+v, DecodeAnswer %+v, %v", b, rs, slow, err)
		}
		took = true
	}
	return took
}

func TestQuickMovesTakeHonestMoves(t *testing.T) {
	for _, b := range append(slices.Clone(honestFires), honestAnswers[0]) {
		if !checkQuickMoves(t, b) {
			t.Errorf("%s: the quick decoders leave an honest move to the slow path", b)
		}
	}
}

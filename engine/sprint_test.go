package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// stringer, ptrStringer and panicker are arguments whose String fmt treats
// specially or not at all.
type (
	stringer    int
	ptrStringer struct{}
	panicker    struct{}
	named       string
)

func (s stringer) String() string   { return fmt.Sprintf("<%d>", int(s)) }
func (*ptrStringer) String() string { return "ptr" }
func (panicker) String() string     { panic("no words") }

// TestQuickSprintfIsSprintf holds the formatter of every event's and
// prompt's words to fmt.Sprintf: the same bytes for any format and
// arguments, the ones it writes itself and the ones it leaves to fmt.
func TestQuickSprintfIsSprintf(t *testing.T) {
	pieces := []string{"%s", "%v", "%d", "%%", "%q", "%5d", "%-3s", "%x", "%", "%[1]s", " and ", "x", "'s ", ""}
	var nilPtr *ptrStringer
	values := []any{0, -7, 12345, "", "a word", "\x00\x01", named("ship"), stringer(3), &ptrStringer{}, nilPtr, panicker{},
		errors.New("boom"), Seat(1), NoSeat, seatMark(0), seatMark(3), markedWords{Words{text: "seat 1", said: "\x00\x02"}},
		Plain("plain words"), 2.5, true, nil, []int{1}, []int(nil), []int{}, []int{-3, 0, 40}, []int8{1, 2},
		Slot{Owner: 1, Name: "grid", Index: 3}}
	rng := rand.New(rand.NewPCG(15, 4))
	for range 20000 {
		format, args := randomText(rng, 5, pieces, values)
		if got, want := sprintf(format, args...), fmt.Sprintf(format, args...); got != want {
			t.Fatalf("sprintf(%q, %#v) = %q, fmt.Sprintf gives %q", format, args, got, want)
		}
	}
	if _, ok := quickSprintf("%s fires at %s (turn %d)", []any{seatMark(0), "C-4", 3}); !ok {
		t.Error("an event's plain format is left to fmt")
	}
	if _, ok := quickSprintf("roll %d (%s) = %v from", []any{4, "draw", []int{3, 1}}); !ok {
		t.Error("a roll's values are left to fmt")
	}
}

// TestWordsfAsTwoPasses holds Wordsf, which writes the marked text and
// the plain text in one builder, to what it gave when it formatted the
// marked text and then rendered it apart: the same Words for any format
// and arguments, seats, words, errors and fmt's own cases among them.
func TestWordsfAsTwoPasses(t *testing.T) {
	pieces := []string{"%s", "%v", "%d", "%%", "%q", "%5d", "%x", "%", " and ", "x", "'s ", "\x00"}
	values := []any{0, -7, 12345, "", "a word", "\x00\x01", stringer(3), panicker{}, errors.New("boom"),
		Seat(0), Seat(1), Seat(7), NoSeat, Wordsf("%s hits %s", Seat(0), Seat(1)), Plain("plain"),
		Errorf("%s cheated", Seat(1)), []int{4, 2}, 2.5, nil}
	rng := rand.New(rand.NewPCG(15, 6))
	for range 20000 {
		format, args := randomText(rng, 6, pieces, values)
		want := Words{text: sprintf(format, args...)}
		if marked, ok := mark(nil, args); ok && marked != nil {
			said := sprintf(format, marked...)
			want = Words{text: render(said, nil), said: said}
		}
		if got := Wordsf(format, args...); got != want {
			t.Fatalf("Wordsf(%q, %#v) = %#v, two passes gave %#v", format, args, got, want)
		}
	}
}

// TestQuickWordsIsWordsf holds the one-pass writer of every event's and
// prompt's words to Wordsf's definition (wordsf: the marked text
// formatted, then rendered): the same Words, text and marked text, for
// any format and arguments, the ones it writes itself and the ones it
// leaves to wordsf.
func TestQuickWordsIsWordsf(t *testing.T) {
	pieces := []string{"%s", "%v", "%d", "%%", "%q", "%5d", "%x", "%", " and ", "x", "'s ", "\x00", ""}
	var nilPtr *ptrStringer
	values := []any{0, -7, 300, "", "a word", "a\x00\x02", named("ship"), stringer(3), &ptrStringer{}, nilPtr, panicker{},
		errors.New("boom"), Errorf("%s failed", Seat(1)), Seat(0), Seat(1), Seat(3), NoSeat, Seat(-2), Seat(254), Seat(255), Seat(300),
		Plain("plain words"), Plain("odd\x00\x03words"), Wordsf("%s hits %s", Seat(0), Seat(1)), Wordsf("%s wins", NoSeat),
		2.5, true, nil, []int{1}, Slot{Owner: 1, Name: "grid", Index: 3}}
	rng := rand.New(rand.NewPCG(15, 27))
	quick := 0
	for range 30000 {
		format, args := randomText(rng, 5, pieces, values)
		want := wordsf(format, args)
		got, ok := quickWords(format, args)
		if !ok {
			got = want
		} else {
			quick++
		}
		if got != want || Wordsf(format, args...) != want {
			t.Fatalf("Wordsf(%q, %#v) = %#v, by its definition %#v", format, args, got, want)
		}
	}
	if quick < 2000 {
		t.Fatalf("only %d of the texts took the one-pass writer", quick)
	}
	if _, ok := quickWords("%s (%s) fires at %s (turn %d)", []any{Seat(0), stringer(2), "C-4, D-5", 3}); !ok {
		t.Error("an event's plain format is left to wordsf")
	}
}

// randomText returns a format of fewer than most pieces and up to three
// arguments drawn from values.
func randomText(rng *rand.Rand, most int, pieces []string, values []any) (string, []any) {
	var format string
	for range rng.IntN(most) {
		format += pieces[rng.IntN(len(pieces))]
	}
	args := make([]any, rng.IntN(4))
	for i := range args {
		args[i] = values[rng.IntN(len(values))]
	}
	return format, args
}

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
		var format string
		for range rng.IntN(5) {
			format += pieces[rng.IntN(len(pieces))]
		}
		args := make([]any, rng.IntN(4))
		for i := range args {
			args[i] = values[rng.IntN(len(values))]
		}
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
		var format string
		for range rng.IntN(6) {
			format += pieces[rng.IntN(len(pieces))]
		}
		args := make([]any, rng.IntN(4))
		for i := range args {
			args[i] = values[rng.IntN(len(values))]
		}
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

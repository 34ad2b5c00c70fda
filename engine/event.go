package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Words is a line for people that may name seats: an event, a refusal, a
// reason the match ended, a prompt, a note of the referee. Built by
// [Wordsf], it keeps each seat apart from the words around it, so that
// String writes the seats as [Seat.String] does ("seat 1"), which is the
// text that errors, logs, state hashes and transcripts hold, unchanged,
// while Say writes them as an interface names its players. Nobody finds a
// seat by searching the words for "seat N": a player named "seat 2" is
// never taken for one.
type Words struct {
	text string // the seats written as "seat N"
	said string // the seats marked; "" when the words name none
}

// Wordsf returns fmt.Sprintf(format, args...) as Words, with every Seat
// argument (under %s or %v) kept as a seat, and the seats of every Words
// argument and of every error argument that has Words ([Worded]) kept
// too. Words that hold the marker (never an engine's: a peer's junk, say)
// are kept plain: they name no seat.
func Wordsf(format string, args ...any) Words {
	if w, ok := quickWords(format, args); ok {
		return w
	}
	return wordsf(format, args)
}

// wordsf is Wordsf by its definition: the marked text formatted, then
// rendered for the plain one.
func wordsf(format string, args []any) Words {
	var buf [8]any // the marked arguments, on the stack for most texts
	marked, ok := mark(buf[:0], args)
	if !ok || marked == nil {
		return Words{text: sprintf(format, args...)}
	}
	return markedWordsf(format, marked)
}

// markedWordsf returns the Words of format with the marked arguments: the
// marked text, and the plain text render writes from it after it in the
// same builder, so that the words of an event (an audit builds one or more
// for every input it replays) cost one allocation instead of two.
func markedWordsf(format string, marked []any) Words {
	var b strings.Builder
	b.Grow(2 * (len(format) + 16*len(marked)))
	if !quickTo(&b, format, marked) {
		said := fmt.Sprintf(format, marked...)
		return Words{text: render(said, nil), said: said}
	}
	n := b.Len()
	if !renderTo(&b, b.String(), nil) {
		said := b.String()
		return Words{text: said, said: said}
	}
	s := b.String() // the builder only appended: s[:n] is the marked text
	return Words{text: s[n:], said: s[:n]}
}

// Plain returns text that names no seat as Words (a seat written in it
// stays as it is written).
func Plain(text string) Words { return Words{text: text} }

// String returns the words with each seat written as Seat.String writes
// it: the text as logs, errors and transcripts hold it.
func (w Words) String() string { return w.text }

// Say returns the words with each seat they name written by name (an
// interface passes its players' display names).
func (w Words) Say(name func(Seat) string) string {
	if w.said == "" {
		return w.text
	}
	return render(w.said, name)
}

// Part is a stretch of [Words]: words, or a seat they name.
type Part struct {
	Text   string // the words (when IsSeat is false)
	Seat   Seat   // the seat named (when IsSeat is true)
	IsSeat bool
}

// Parts returns the words as stretches of words and the seats between
// them, in order: what an interface reads to put grammar around a seat it
// names "you", without searching the text for the seat.
func (w Words) Parts() []Part {
	if w.said == "" {
		return []Part{{Text: w.text}}
	}
	var out []Part
	said := w.said
	for {
		i := strings.IndexByte(said, seatMarker[0])
		if i < 0 || i+1 >= len(said) {
			if said != "" {
				out = append(out, Part{Text: said})
			}
			return out
		}
		if i > 0 {
			out = append(out, Part{Text: said[:i]})
		}
		out = append(out, Part{Seat: Seat(int(said[i+1]) - 1), IsSeat: true})
		said = said[i+2:]
	}
}

// Edit returns the words with f applied to each stretch of words between
// the seats they name, never to a seat: an interface's touches to an
// engine's wording ("an" before a vowel, a suffix dropped) cannot change
// a player's name, which Say puts in afterwards.
func (w Words) Edit(f func(string) string) Words {
	if w.said == "" {
		return Plain(f(w.text))
	}
	var b strings.Builder
	for _, p := range w.Parts() {
		if p.IsSeat {
			fmt.Fprint(&b, seatMark(p.Seat))
			continue
		}
		b.WriteString(strings.ReplaceAll(f(p.Text), seatMarker, ""))
	}
	said := b.String()
	return Words{text: render(said, nil), said: said}
}

// Worded is implemented by errors (and other texts) that keep the seats
// they name apart ([Words]): [*IllegalError], [*Fault], the errors of
// [Errorf], and the referee's violations. Their Words' String is their
// Error.
type Worded interface {
	Words() Words
}

// WordsOf returns what v says as Words: its own (a [Worded] whose Words
// agree with its text), else its text plain. v is an error, a Stringer or
// a string. An error that wraps a Worded one with plain words before it
// (fmt.Errorf("reply: %w", err)) keeps the seats of the one it wraps.
func WordsOf(v any) Words {
	var text string
	switch v := v.(type) {
	case nil:
		return Words{}
	case Words:
		return v
	case error:
		text = v.Error()
	case fmt.Stringer:
		text = v.String()
	case string:
		return Plain(v)
	default:
		return Plain(fmt.Sprint(v))
	}
	if w, ok := v.(Worded); ok {
		if w := w.Words(); w.text == text {
			return w
		}
	}
	if err, ok := v.(error); ok {
		return wrappedWords(err, text)
	}
	return Plain(text)
}

// wrappedWords returns the words of err, whose text is text: the words of
// the first error it wraps that is [Worded], after the plain words that
// err's text puts before that one's; text plain when there is none, or
// when err's text does not end with it.
func wrappedWords(err error, text string) Words {
	var inner Worded
	if !errors.As(err, &inner) {
		return Plain(text)
	}
	w := inner.Words()
	head, ok := strings.CutSuffix(text, w.text)
	if !ok || w.said == "" || strings.Contains(head, seatMarker) {
		return Plain(text)
	}
	return Words{text: text, said: head + w.said}
}

// Say returns err's text with each seat it keeps apart ([Worded]) named by
// name; a seat only written in the text stays "seat N".
func Say(err error, name func(Seat) string) string { return WordsOf(err).Say(name) }

// Errorf is fmt.Errorf (it wraps what %w names) with its seats kept apart
// as [Wordsf] keeps them: its error is [Worded].
func Errorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	var buf [8]any
	marked, ok := mark(buf[:0], args)
	if !ok || marked == nil {
		return err
	}
	said := fmt.Errorf(format, marked...).Error()
	return &wordedError{err: err, words: Words{text: err.Error(), said: said}}
}

// wordedError is an error of Errorf: fmt's error, with its Words.
type wordedError struct {
	err   error
	words Words
}

func (e *wordedError) Error() string { return e.err.Error() }
func (e *wordedError) Words() Words  { return e.words }

// Unwrap returns what fmt.Errorf's error wraps, so errors.Is and As see
// through an Errorf as through fmt.Errorf.
func (e *wordedError) Unwrap() []error {
	switch u := e.err.(type) {
	case interface{ Unwrap() []error }:
		return u.Unwrap()
	case interface{ Unwrap() error }:
		return []error{u.Unwrap()}
	}
	return nil
}

// mark appends to buf each argument as the marked text formats it: a Seat
// as a marked seat; Words, and errors and other values that are [Worded]
// (a [Slot]), by their marked words. It returns nil when nothing is
// marked, and false when an argument's text holds the marker (the whole
// text is then kept plain).
func mark(buf []any, args []any) ([]any, bool) {
	var marked []any
	for i, a := range args {
		var m any
		var w Words
		switch a := a.(type) {
		case Seat:
			m = seatMark(a)
		case string:
			w = Plain(a)
		case Words:
			w = a
		case error, Worded:
			w = WordsOf(a)
		}
		switch {
		case w.said == "" && strings.Contains(w.text, seatMarker):
			return nil, false
		case w.said == "":
		case isError(a):
			m = markedError{a.(error), w}
		default:
			m = markedWords{w}
		}
		if m != nil && marked == nil {
			marked = append(buf, args[:i]...)
		}
		switch {
		case m != nil:
			marked = append(marked, m)
		case marked != nil:
			marked = append(marked, a)
		}
	}
	return marked, true
}

func isError(a any) bool {
	_, ok := a.(error)
	return ok
}

// markedWords formats Words with their seats marked.
type markedWords struct{ w Words }

func (m markedWords) Format(f fmt.State, verb rune) { fmt.Fprint(f, m.w.said) }

// markedError formats a Worded error with its seats marked; it is still
// the error, so that fmt.Errorf's %w wraps it.
type markedError struct {
	error
	w Words
}

func (m markedError) Format(f fmt.State, verb rune) { fmt.Fprint(f, m.w.said) }
func (m markedError) Unwrap() error                 { return m.error }

// Eventf returns an event whose Text is fmt.Sprintf(format, args...), with
// every Seat argument (under %s or %v) written as Seat.String writes it
// ("seat 1"). The event keeps the seats apart from the words around them
// ([Wordsf]), so that an interface names each its own way with
// [Event.Say] instead of searching Text for "seat N".
func Eventf(seat Seat, kind, format string, args ...any) Event {
	w := Wordsf(format, args...)
	return Event{Seat: seat, Kind: kind, Text: w.text, said: w.said}
}

// Words returns the event's text as Words.
func (e Event) Words() Words { return agree(e.Text, e.said) }

// Say returns the event's text with each seat it names written by name
// (an interface passes its players' display names). An event built
// without Eventf says its Text.
func (e Event) Say(name func(Seat) string) string { return e.Words().Say(name) }

// agree returns text as Words with the marked said, when said writes text
// (a field set beside it since the words were built makes it plain).
func agree(text, said string) Words {
	if said == "" || render(said, nil) != text {
		return Words{text: text}
	}
	return Words{text: text, said: said}
}

// seatMarker, then a byte holding the seat plus one, stands for a seat in
// marked words (Words.said); no engine writes it.
const seatMarker = "\x00"

// seatMark formats a seat as the marker and the seat's byte. It is an
// integer type, so that boxing one (a small seat) allocates nothing.
type seatMark Seat

func (m seatMark) Format(f fmt.State, verb rune) {
	if verb != 's' && verb != 'v' {
		fmt.Fprintf(f, fmt.FormatString(f, verb), int(m))
		return
	}
	f.Write([]byte{seatMarker[0], byte(int(m) + 1)})
}

// render writes marked text with each marked seat named by name; a nil
// name writes each as Seat.String does, without a string per seat (the
// plain text of every event and prompt is written so).
func render(said string, name func(Seat) string) string {
	var b strings.Builder
	b.Grow(len(said) + 16)
	if !renderTo(&b, said, name) {
		return said
	}
	return b.String()
}

// renderTo writes render(said, name) to b, or nothing and false when said
// marks no seat (render returns said itself).
func renderTo(b *strings.Builder, said string, name func(Seat) string) bool {
	i := strings.IndexByte(said, seatMarker[0])
	if i < 0 || i+1 >= len(said) {
		return false
	}
	for i >= 0 && i+1 < len(said) {
		b.WriteString(said[:i])
		switch s := Seat(int(said[i+1]) - 1); {
		case name != nil:
			b.WriteString(name(s))
		case s == NoSeat:
			b.WriteString(NoSeat.String())
		default:
			b.WriteString("seat ")
			b.WriteString(strconv.Itoa(int(s)))
		}
		said = said[i+2:]
		i = strings.IndexByte(said, seatMarker[0])
	}
	b.WriteString(said)
	return true
}

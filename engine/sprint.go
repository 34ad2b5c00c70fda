package engine

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// sprintf is fmt.Sprintf, byte for byte: the words of every event and
// prompt are formatted by it, for every input an audit replays, and most
// are a few %s and %d of strings, numbers and seats, which quickSprintf
// writes without fmt's reflection. Anything else is fmt's.
func sprintf(format string, args ...any) string {
	if s, ok := quickSprintf(format, args); ok {
		return s
	}
	return fmt.Sprintf(format, args...)
}

// quickSprintf writes format with args as fmt.Sprintf does, when every verb
// is a bare %s, %v, %d or %% and its argument one that the verb writes
// plainly (strings and Stringers under %s and %v, ints and slices of ints
// under %d and %v, marked seats and words); false for anything else, or
// when a String method panics (fmt reports that in the text), or when the
// verbs and arguments do not pair up.
func quickSprintf(format string, args []any) (string, bool) {
	var b strings.Builder
	b.Grow(len(format) + 16*len(args))
	if !quickTo(&b, format, args) {
		return "", false
	}
	return b.String(), true
}

// quickTo is quickSprintf writing to b (which holds what it wrote when it
// reports false).
func quickTo(b *strings.Builder, format string, args []any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	next := 0
	for {
		i := strings.IndexByte(format, '%')
		if i < 0 {
			b.WriteString(format)
			break
		}
		b.WriteString(format[:i])
		if i+1 >= len(format) {
			return false
		}
		verb := format[i+1]
		format = format[i+2:]
		if verb == '%' {
			b.WriteByte('%')
			continue
		}
		if next >= len(args) || !quickArg(b, verb, args[next]) {
			return false
		}
		next++
	}
	return next == len(args)
}

// quickArg writes a under verb as fmt does, or reports false.
func quickArg(b *strings.Builder, verb byte, a any) bool {
	switch a := a.(type) {
	case int:
		if verb != 'd' && verb != 'v' {
			return false
		}
		b.WriteString(strconv.Itoa(a))
		return true
	case string:
		if verb != 's' && verb != 'v' {
			return false
		}
		b.WriteString(a)
		return true
	case []int:
		// The values of a roll or the leaves of a draw: fmt writes them
		// between brackets, apart by spaces, under %v and %d alike.
		if verb != 'd' && verb != 'v' {
			return false
		}
		b.WriteByte('[')
		for i, v := range a {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(v))
		}
		b.WriteByte(']')
		return true
	case seatMark:
		if verb != 's' && verb != 'v' {
			return false
		}
		b.WriteByte(seatMarker[0])
		b.WriteByte(byte(int(a) + 1))
		return true
	case markedWords:
		b.WriteString(a.w.said)
		return verb == 's' || verb == 'v'
	case fmt.Formatter, error:
		return false
	case fmt.Stringer:
		// fmt writes "<nil>" for a nil pointer's String; leave pointers to it.
		if (verb != 's' && verb != 'v') || reflect.ValueOf(a).Kind() == reflect.Pointer {
			return false
		}
		b.WriteString(a.String())
		return true
	}
	return false
}

// quickWords is Wordsf for the texts quickSprintf writes itself (bare %s,
// %v, %d and %% of strings, ints, seats, Words and plain Stringers): the
// plain text and the marked one written side by side in one pass and kept
// in one string, instead of the marked text formatted and then rendered
// into a second. An audit words an event or a prompt for every input it
// replays, and the two passes were a twentieth of a two-player audit
// (issue 15). It reports false for anything else, and for the texts whose
// marked form Wordsf keeps plain (a marker in the format or an argument),
// which wordsf then writes: TestQuickWordsIsWordsf holds the two to the
// same Words.
func quickWords(format string, args []any) (w Words, ok bool) {
	defer func() {
		if recover() != nil {
			w, ok = Words{}, false
		}
	}()
	if strings.Contains(format, seatMarker) {
		return Words{}, false
	}
	var textBuf, saidBuf [160]byte
	text, said := textBuf[:0], saidBuf[:0]
	marked := false
	next := 0
	for {
		i := strings.IndexByte(format, '%')
		if i < 0 {
			text, said = append(text, format...), append(said, format...)
			break
		}
		text, said = append(text, format[:i]...), append(said, format[:i]...)
		if i+1 >= len(format) {
			return Words{}, false
		}
		verb := format[i+1]
		format = format[i+2:]
		if verb == '%' {
			text, said = append(text, '%'), append(said, '%')
			continue
		}
		if next >= len(args) {
			return Words{}, false
		}
		var seat, plain bool
		text, said, seat, plain = appendWordsArg(text, said, verb, args[next])
		if !plain {
			return Words{}, false
		}
		marked = marked || seat
		next++
	}
	if next != len(args) {
		return Words{}, false
	}
	if !marked {
		return Words{text: string(text)}, true
	}
	var b strings.Builder
	b.Grow(len(text) + len(said))
	b.Write(text)
	b.Write(said)
	both := b.String()
	return Words{text: both[:len(text)], said: both[len(text):]}, true
}

// appendWordsArg appends a under verb to the plain text and to the marked
// one as Wordsf writes them. It reports whether a marked a seat, and false
// (plain) for an argument quickWords leaves to wordsf.
func appendWordsArg(text, said []byte, verb byte, a any) (_, _ []byte, marked, ok bool) {
	str := verb == 's' || verb == 'v'
	switch a := a.(type) {
	case Seat:
		// A marker holds seat+1 in a byte: only -1 (NoSeat) to 254 go
		// through it unchanged.
		if !str || a < NoSeat || a > 254 {
			return text, said, false, false
		}
		return appendSeat(text, a), append(said, seatMarker[0], byte(int(a)+1)), true, true
	case int:
		if verb != 'd' && verb != 'v' {
			return text, said, false, false
		}
		return strconv.AppendInt(text, int64(a), 10), strconv.AppendInt(said, int64(a), 10), false, true
	case string:
		if !str || strings.Contains(a, seatMarker) {
			return text, said, false, false
		}
		return append(text, a...), append(said, a...), false, true
	case Words:
		switch {
		case !str:
			return text, said, false, false
		case a.said == "":
			if strings.Contains(a.text, seatMarker) {
				return text, said, false, false
			}
			return append(text, a.text...), append(said, a.text...), false, true
		}
		return appendRendered(text, a.said), append(said, a.said...), true, true
	case fmt.Formatter, error, Worded:
		return text, said, false, false
	case fmt.Stringer:
		if !str || reflect.ValueOf(a).Kind() == reflect.Pointer {
			return text, said, false, false
		}
		s := a.String()
		if strings.Contains(s, seatMarker) {
			return text, said, false, false
		}
		return append(text, s...), append(said, s...), false, true
	}
	return text, said, false, false
}

// appendSeat appends s as render writes a marked seat without names.
func appendSeat(dst []byte, s Seat) []byte {
	if s == NoSeat {
		return append(dst, NoSeat.String()...)
	}
	return strconv.AppendInt(append(dst, "seat "...), int64(s), 10)
}

// appendRendered appends render(said, nil).
func appendRendered(dst []byte, said string) []byte {
	for {
		i := strings.IndexByte(said, seatMarker[0])
		if i < 0 || i+1 >= len(said) {
			return append(dst, said...)
		}
		dst = appendSeat(append(dst, said[:i]...), Seat(int(said[i+1])-1))
		said = said[i+2:]
	}
}

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

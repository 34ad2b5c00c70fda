package engine

import (
	"fmt"
	"strings"
)

// Eventf returns an event whose Text is fmt.Sprintf(format, args...), with
// every Seat argument (under %s or %v) written as Seat.String writes it
// ("seat 1"). The event keeps the seats apart from the words around them,
// so that an interface names each its own way with [Event.Say] instead of
// searching Text for "seat N".
func Eventf(seat Seat, kind, format string, args ...any) Event {
	var buf [8]any // the marked arguments, on the stack for most events
	var marked []any
	for i, a := range args {
		switch a := a.(type) {
		case Seat:
			if marked == nil {
				marked = append(buf[:0], args[:i]...)
			}
			marked = append(marked, seatMark(a))
			continue
		case string:
			if strings.Contains(a, seatMarker) {
				// Words that hold the marker: keep them plain.
				return Event{Seat: seat, Kind: kind, Text: fmt.Sprintf(format, args...)}
			}
		}
		if marked != nil {
			marked = append(marked, a)
		}
	}
	if marked == nil {
		return Event{Seat: seat, Kind: kind, Text: fmt.Sprintf(format, args...)}
	}
	said := fmt.Sprintf(format, marked...)
	return Event{Seat: seat, Kind: kind, Text: render(said, Seat.String), said: said}
}

// Say returns the event's text with each seat it names written by name
// (an interface passes its players' display names). An event built
// without Eventf says its Text.
func (e Event) Say(name func(Seat) string) string {
	if e.said == "" {
		return e.Text
	}
	return render(e.said, name)
}

// seatMarker, then a byte holding the seat plus one, stands for a seat in
// an event's marked text (Event.said); no engine writes it.
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

// render writes marked text with each marked seat named by name.
func render(said string, name func(Seat) string) string {
	var b strings.Builder
	b.Grow(len(said) + 16)
	for {
		i := strings.IndexByte(said, seatMarker[0])
		if i < 0 || i+1 >= len(said) {
			b.WriteString(said)
			return b.String()
		}
		b.WriteString(said[:i])
		b.WriteString(name(Seat(int(said[i+1]) - 1)))
		said = said[i+2:]
	}
}

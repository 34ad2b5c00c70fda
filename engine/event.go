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
	var seats []Seat
	marked := make([]any, len(args))
	for i, a := range args {
		if s, ok := a.(Seat); ok {
			marked[i] = seatMark{s, &seats}
		} else {
			marked[i] = a
		}
	}
	out := fmt.Sprintf(format, marked...)
	if len(seats) == 0 {
		return Event{Seat: seat, Kind: kind, Text: out}
	}
	parts := strings.Split(out, seatMarker)
	if len(parts) != len(seats)+1 {
		// Another argument held the marker: keep the plain words.
		return Event{Seat: seat, Kind: kind, Text: fmt.Sprintf(format, args...)}
	}
	e := Event{Seat: seat, Kind: kind, said: &phrase{parts: parts, seats: seats}}
	e.Text = e.Say(Seat.String)
	return e
}

// Say returns the event's text with each seat it names written by name
// (an interface passes its players' display names). An event built
// without Eventf says its Text.
func (e Event) Say(name func(Seat) string) string {
	if e.said == nil {
		return e.Text
	}
	var b strings.Builder
	for i, p := range e.said.parts {
		b.WriteString(p)
		if i < len(e.said.seats) {
			b.WriteString(name(e.said.seats[i]))
		}
	}
	return b.String()
}

// phrase is a line for people cut where it names seats: parts[i] comes
// before seats[i].
type phrase struct {
	parts []string
	seats []Seat
}

// seatMarker stands for a seat while Eventf formats; no engine writes it.
const seatMarker = "\x00"

// seatMark formats a seat as the marker, noting which seat it was.
type seatMark struct {
	seat Seat
	seen *[]Seat
}

func (m seatMark) Format(f fmt.State, verb rune) {
	if verb != 's' && verb != 'v' {
		fmt.Fprintf(f, fmt.FormatString(f, verb), int(m.seat))
		return
	}
	*m.seen = append(*m.seen, m.seat)
	f.Write([]byte(seatMarker))
}

package enginetest

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// seatWord is "seat N" in a test's text.
var seatWord = regexp.MustCompile(`\bseat (\d+)\b`)

// Event returns the event an engine builds with engine.Eventf for text, a
// line written with each seat as "seat N": for tests of what an interface
// makes of engine events.
func Event(seat engine.Seat, kind, text string) engine.Event {
	var args []any
	format := seatWord.ReplaceAllStringFunc(strings.ReplaceAll(text, "%", "%%"), func(w string) string {
		n, _ := strconv.Atoi(strings.TrimPrefix(w, "seat "))
		args = append(args, engine.Seat(n))
		return "%s"
	})
	return engine.Eventf(seat, kind, format, args...)
}

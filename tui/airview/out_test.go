package airview

import (
	"strings"
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// Issue 14 point 18: a player whose squadron is shot down in a 3-player
// match is told it is out and may leave without forfeiting anything, in
// the side panel and the prompt, at 80x24 too; before, it saw only "Your
// hand (0 cards)". The players still flying are not told so.
func TestShotDownPlayerIsToldItIsOut(t *testing.T) {
	for seed := uint64(1); seed < 40; seed++ {
		d := newDriver(t, 3, "ffa", seed)
		d.randomAgents(seed)
		var out engine.Seat = engine.NoSeat
		d.runTo(func(n engine.Need) bool {
			for s := range 3 {
				if d.g.Out(engine.Seat(s)) {
					out = engine.Seat(s)
				}
			}
			return out != engine.NoSeat || n.Kind == engine.NeedNone
		})
		if out == engine.NoSeat || d.g.Outcome().Done {
			continue
		}
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			f := newFixture(t, false, size[0], size[1])
			f.show(d, out)
			f.Must("Shot down: you are out")
			if p := f.v.Prompt(); !strings.Contains(p, "out of the game") || !strings.Contains(p, "forfeiting nothing") {
				t.Fatalf("prompt of the shot-down player: %q", p)
			}
			other := (out + 1) % 3
			if d.g.Out(other) {
				other = (out + 2) % 3
			}
			g := newFixture(t, false, size[0], size[1])
			g.show(d, other)
			if s := g.Text(); strings.Contains(s, "you are out") {
				t.Fatalf("%s, still flying, is told it is out:\n%s", other, s)
			}
		}
		return
	}
	t.Fatal("no seed put a seat out before the end")
}

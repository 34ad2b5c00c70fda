package oceansview

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/oceans"
)

// BenchmarkFollowABotTurn measures retracing the bot's inputs between two of
// seat 0's steps (what the board does on the interface's goroutine each
// time a message arrives).
func BenchmarkFollowABotTurn(b *testing.B) {
	type gap struct{ prev, cur *oceans.Game }
	var gaps []gap
	tb := newTable(b, 4)
	var prev *oceans.Game
	for tb.G.Next().Kind != engine.NeedNone {
		n := tb.G.Next()
		if n.Seat == 0 && n.Kind != engine.NeedRandom && tb.G.Phase() >= oceans.PhaseDeal {
			cur := tb.G.Clone().(*oceans.Game)
			if prev != nil {
				gaps = append(gaps, gap{prev, cur})
			}
			prev = cur
		}
		tb.Step()
	}
	own := tb.Own(0)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		gp := gaps[i%len(gaps)]
		if _, ok := follow(gp.prev, gp.cur, own); !ok {
			b.Fatal("could not retrace")
		}
	}
}

package air

import (
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// A player who leaves a free-for-all of three or four (or goes silent past
// the give-up time) is taken off the table and the others play on: the
// rulebook's free-for-all winner is "the last player in the game", so a
// departure is one player fewer, not the end (issue 14 requirement 4).
// Maximum Damage with three or four players is a free-for-all too ("use
// all the same rules as the 2-Player game", and beyond two players that
// game is the free-for-all), so it plays on the same way. In the team game
// a departure counts as the leaver's squadron eliminated (ForfeitOutcome),
// and with two players the other one wins: there PlaysOn is false.
//
// House choices of a departure (DATA.md has none; doc.go lists them):
//   - its planes leave the board at once, as if shot down, and its hand is
//     set aside unrevealed;
//   - the rest of the draw pile is set aside unrevealed too: every card in
//     it is masked under the leaver's key share of the shuffle, which left
//     with it, so it can no longer be dealt; the discard pile is shuffled
//     into a new draw pile (without the leaver) the next time a hand needs
//     cards;
//   - a card it chose this round and had not yet turned over is set aside;
//     one already face up goes to the discard pile;
//   - if one of its planes was acting, that turn ends; a shot at one of
//     its planes, or a disruption move of one, comes to nothing.

// PlaysOn reports whether the match goes on without seat if it leaves now
// ([engine.Remover]): in a free-for-all of three or four, while the match
// runs and the seat is still at the table.
func (g *Game) PlaysOn(seat engine.Seat) bool {
	return !g.team && g.seats > 2 && seat >= 0 && int(seat) < g.seats &&
		!g.Gone(seat) && !g.outcome.Done
}

// Gone reports whether seat's player left and was taken off the table.
func (g *Game) Gone(seat engine.Seat) bool {
	return seat >= 0 && int(seat) < g.seats && g.gone&(1<<uint(seat)) != 0
}

// Remove takes seat off the table ([engine.Remover]); see the house
// choices above. It changes nothing and fails where PlaysOn is false.
func (g *Game) Remove(seat engine.Seat) ([]engine.Event, error) {
	if !g.PlaysOn(seat) {
		return nil, engine.Illegal("%s cannot be taken off the table: only a player still at the table of a running free-for-all of three or four can", seat)
	}
	w := g.clone()
	var ev events
	w.remove(&ev, int(seat))
	*g = *w
	return ev.list, nil
}

func (g *Game) remove(ev *events, seat int) {
	g.gone |= 1 << uint(seat)
	ev.add(engine.Seat(seat), "left", "%s left: its planes leave the board; play goes on", Squadron[seat])
	for i := 2 * seat; i < 2*seat+2; i++ {
		g.planes[i].Down = true
		g.planes[i].Missiles = 0
	}
	g.outOfPlay += len(g.hands[seat])
	g.hands[seat] = nil
	if n := g.remaining(); n > 0 {
		d := &g.decks[len(g.decks)-1]
		g.outOfPlay += n
		d.next = d.size
		ev.add(engine.NoSeat, "setaside", "the %d undealt card(s) of the draw pile are set aside: they were shuffled under %s's key", n, Squadron[seat])
	}
	g.checkOutcome(ev)
	if g.outcome.Done {
		return
	}
	switch g.phase {
	case phDeal:
		g.refill()
	case phChoice:
		g.choosers = slices.DeleteFunc(g.choosers, func(s engine.Seat) bool { return int(s) == seat })
		if len(g.choosers) == 0 {
			g.finish(nil, true, "no Navigation card is left to play")
		}
	case phOpen:
		g.dropOpen(ev, seat)
	case phTurn:
		g.dropTurn(ev, seat)
	}
}

// dropOpen takes a departed seat's cards out of this round while the
// chosen cards are being turned over.
func (g *Game) dropOpen(ev *events, seat int) {
	g.order = slices.DeleteFunc(g.order, func(p Played) bool {
		if int(g.planes[p.Plane].Seat) != seat {
			return false
		}
		if p.Number == 0 {
			g.outOfPlay++ // still face down: its number stays secret
		} else {
			g.discard = append(g.discard, p)
		}
		return true
	})
	if i := slices.Index(g.choosers, engine.Seat(seat)); i >= 0 {
		g.choosers = slices.Delete(g.choosers, i, i+1)
		if i < g.cursor {
			g.cursor--
		}
	}
	if g.cursor >= len(g.choosers) {
		g.startTurns(ev)
	}
}

// dropTurn settles the turn in progress when seat departs: its own plane's
// turn ends; an action aimed at one of its planes comes to nothing.
func (g *Game) dropTurn(ev *events, seat int) {
	if int(g.actor()) == seat {
		g.pend = pending{}
		g.discard = append(g.discard, g.order[g.ts.index])
		g.nextTurn(ev)
		return
	}
	p := &g.pend
	if p.kind == pendNone || int(g.planes[p.plane].Seat) != seat {
		return
	}
	switch p.kind {
	case pendFire, pendDamage:
		g.ts.fired = true
	case pendDisrupt:
		g.ts.disrupted = true
	case pendCollide:
		if !g.planes[p.other].Down {
			return // the mover still takes its own damage
		}
	}
	*p = pending{}
	g.afterAction(ev)
}

package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/p2p/session"
	"github.com/salvo-game/salvo/tui/style"
)

// A player must see within seconds that another one is gone, who, and how
// long the match still waits for it: a calm "waiting for cy … 9 min"
// over a dead link reads as a slow opponent. The title bar and the
// status line say it, read every KindEvery from the transport: a
// two-player match's link state (session.Reconnecting.Link: reconnecting
// or resuming, since when, when it gives up), a table's players that left
// or stopped answering (session.GroupMatch.Away).

// liveness is what the match screen last read of its links.
type liveness struct {
	// A two-player match's link: its phase and, without a stream, since
	// when and when it gives up on the other player (zero while the link
	// is up or not read yet).
	link session.LinkState
	// A table's players that are gone, and since when.
	away map[engine.Seat]time.Time
}

// watchLiveness reads the links every KindEvery until the referee is done.
func (ms *matchScreen) watchLiveness() {
	if ms.st.practice || ms.st.net == nil && ms.st.group == nil {
		return
	}
	a, g := ms.a, ms.st.group
	ms.every(KindEvery, ms.played, func() {
		var lv liveness
		if g != nil {
			lv.away = g.Away()
		} else if rc := ms.rc.Load(); rc != nil {
			lv.link = rc.Link()
		}
		a.post(func() { ms.links = lv })
	})
}

// clock renders a countdown as minutes and seconds, "1:37" (never below
// "0:00").
func clock(d time.Duration) string {
	s := max(0, int(d.Round(time.Second).Seconds()))
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// gone renders how long a link has been down, for the title bar: in
// seconds up to ten minutes ("95 s", shorter than "1 min 35 s" where
// space is short), then as waited does.
func gone(d time.Duration) string {
	if d < 10*time.Minute {
		return fmt.Sprintf("%d s", max(0, int(d.Seconds())))
	}
	return waited(d)
}

// outage is since when a two-player match has no link and when it gives
// up on the other player, from the transport when read, else from when the
// title first showed it.
func (ms *matchScreen) outage() (since, giveUpAt time.Time) {
	since, giveUpAt = ms.links.link.Since, ms.links.link.GiveUpAt
	if !ms.links.link.Phase.Down() {
		since, giveUpAt = time.Time{}, time.Time{}
	}
	if since.IsZero() {
		since = ms.lostAt
	}
	if giveUpAt.IsZero() {
		giveUpAt = since.Add(ms.a.giveUp())
	}
	return since, giveUpAt
}

// goneSeats lists the other seats that are gone, in seat order (none once
// the match is over). A seat out of the game (shot down, or taken off the
// table) is waited for by nobody, so its absence is no news.
func (ms *matchScreen) goneSeats() []engine.Seat {
	if ms.done {
		return nil
	}
	o, _ := ms.game.(engine.Outer)
	var out []engine.Seat
	for s := range ms.links.away {
		if s != ms.seat && int(s) < len(ms.names) && (o == nil || !o.Out(s)) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// giveUpText says when the match gives up on a seat gone since since: a
// countdown, or, once it ran out while the match waits for another seat,
// that the seat forfeits when its turn comes.
func (ms *matchScreen) giveUpText(since time.Time) string {
	left := time.Until(since.Add(ms.a.giveUp()))
	if left <= 0 {
		return ms.fate(engine.NoSeat) + " on its turn"
	}
	return "gives up in " + clock(left)
}

// linkText is the connection part of the title bar: the kind of link, or
// what the link is doing during an outage ("reconnecting · 23 s, gives up
// in 1:37"; at a table "cy gone 23 s, gives up in 1:37").
func (ms *matchScreen) linkText() string { return ms.linkWords(false) }

// linkWords is linkText, with a table's players that are gone counted
// rather than named when counted is set ("2 players gone 23 s, gives up
// in 1:37"), for a title bar too narrow for their names.
func (ms *matchScreen) linkWords(counted bool) string {
	if ms.reconnecting() {
		since, at := ms.outage()
		return outageTitle(ms.links.link.Phase, time.Since(since), time.Until(at))
	}
	seats := ms.goneSeats()
	if len(seats) == 0 {
		return kindText(ms.kind, time.Since(ms.lostAt))
	}
	first := ms.links.away[seats[0]]
	names := make([]string, len(seats))
	for i, s := range seats {
		names[i] = ms.names[s]
		if at := ms.links.away[s]; at.Before(first) {
			first = at
		}
	}
	who := strings.Join(names, ", ")
	if counted {
		who = fmt.Sprintf("%d players", len(names))
		if len(names) == 1 {
			who = "1 player"
		}
	}
	return fmt.Sprintf("%s gone %s, %s", who, gone(time.Since(first)), ms.giveUpText(first))
}

// outageTitle is the title bar's words for a link down for down, that
// gives up in left, in phase: "reconnecting · 23 s, gives up in 1:37",
// or "resuming · …" while a new stream's handshake runs.
func outageTitle(phase session.LinkPhase, down, left time.Duration) string {
	word := "reconnecting"
	if phase == session.LinkResuming {
		word = "resuming"
	}
	return fmt.Sprintf("%s · %s, gives up in %s", word, gone(down), clock(left))
}

// outageLine is the status line of a two-player match without a link.
func (ms *matchScreen) outageLine() []style.Seg {
	th := ms.a.th
	since, at := ms.outage()
	return []style.Seg{style.S(ms.a.spinner()+" ", th.Warn), style.S(fmt.Sprintf("the link to %s dropped %s ago", ms.opponent, waited(time.Since(since))), th.Warn),
		style.S(fmt.Sprintf(" · %s forfeits in %s · the match goes on once the link is back", ms.opponent, clock(time.Until(at))), th.Dim)}
}

// awayWait is the status line of a table waiting for a seat that is gone
// (nil when the seat awaited is here).
func (ms *matchScreen) awayWait() []style.Seg {
	since, gone := ms.links.away[ms.waitSeat]
	if !ms.waiting || !gone || ms.done || ms.waitSeat == ms.seat || int(ms.waitSeat) >= len(ms.names) {
		return nil
	}
	th, who := ms.a.th, ms.names[ms.waitSeat]
	return []style.Seg{style.S(ms.a.spinner()+" ", th.Warn), style.S(fmt.Sprintf("%s is gone (%s) and the match waits for it", who, waited(time.Since(since))), th.Warn),
		style.S(fmt.Sprintf(" · %s %s in %s · the match goes on if %s comes back", who, ms.fate(ms.waitSeat), clock(time.Until(since.Add(ms.a.giveUp()))), who), th.Dim)}
}

// fate says what becomes of a seat gone past the give-up time (NoSeat:
// any other seat): in a free-for-all that plays on without it, its planes
// leave the board; elsewhere it forfeits.
func (ms *matchScreen) fate(seat engine.Seat) string {
	r, ok := ms.game.(engine.Remover)
	if seat == engine.NoSeat {
		seat = ms.seat // whether the game plays on is the same for every seat still in it
	}
	if ok && r.PlaysOn(seat) {
		return "leaves the board"
	}
	return "forfeits"
}

// awayTail adds to a status line that another seat than the one awaited
// is gone ("· cy gone 23 s").
func (ms *matchScreen) awayTail() []style.Seg {
	var parts []string
	for _, s := range ms.goneSeats() {
		if s != ms.waitSeat {
			parts = append(parts, fmt.Sprintf("%s gone %s", ms.names[s], waited(time.Since(ms.links.away[s]))))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return []style.Seg{style.S(" · "+strings.Join(parts, ", "), ms.a.th.Warn)}
}

// forfeiter names the player a closing record blames: at a table the
// seat's own name, not the list of opponents.
func (ms *matchScreen) forfeiter(c *fairness.Closing) string {
	if c != nil && len(ms.names) > 2 && c.Seat >= 0 && c.Seat < len(ms.names) {
		return ms.names[c.Seat]
	}
	return ms.opponent
}

// titleLeft is the left part of the title bar (game, opponents, whose
// turn, the link's text conn) that fits in w cells beside right. What the
// link is doing outranks the rest: a table's opponents go by number first,
// then whose turn it is goes (the status line says it too), then the
// opponents.
func (ms *matchScreen) titleLeft(w int, conn string, turnStyle tcell.Style, right []style.Seg) []style.Seg {
	th := ms.a.th
	build := func(opponent string, turn bool) []style.Seg {
		out := []style.Seg{style.S(shortTitle(ms.spec.Title)+" · ", th.Base)}
		if opponent != "" {
			out = append(out, style.S("vs "+opponent+" · ", th.Base))
		}
		if turn {
			out = append(out, style.S(ms.turnText(), turnStyle), style.S(" · ", th.Base))
		}
		return append(out, style.S(conn, th.Base))
	}
	opponents := []string{ms.opponent + ms.matesText()}
	if len(ms.names) > 2 {
		opponents = append(opponents, fmt.Sprintf("%d opponents%s", len(ms.names)-1-len(ms.mates), ms.matesText()))
	}
	var left []style.Seg
	for _, turn := range []bool{true, false} {
		for _, opp := range append(opponents, "") {
			if opp == "" && turn {
				continue
			}
			left = build(opp, turn)
			if style.SegsWidth(left)+style.SegsWidth(right)+4 <= w {
				return left
			}
		}
	}
	// The link's words alone: the game's name goes before them, then the
	// names of the players gone, counted instead.
	for _, c := range []string{conn, ms.linkWords(true)} {
		left = []style.Seg{style.S(c, th.Base)}
		if style.SegsWidth(left)+style.SegsWidth(right)+4 <= w {
			break
		}
	}
	return left
}

package tui

import (
	"fmt"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/fairness"
)

// opposer is implemented by games where some players play on one side (the
// Air team game): the title lists teammates apart from the opponents.
type opposer interface {
	Opposes(a, b engine.Seat) bool
}

// sides splits the other players of a match into opponents and teammates
// of seat, by name. A game without teams has no teammates.
func sides(names []string, seat engine.Seat, g engine.Game) (foes, mates []string) {
	o, teams := g.(opposer)
	for s, n := range names {
		switch {
		case engine.Seat(s) == seat:
		case teams && !o.Opposes(seat, engine.Seat(s)):
			mates = append(mates, n)
		default:
			foes = append(foes, n)
		}
	}
	return foes, mates
}

// matesText is what the title says after the opponents about teammates:
// " · with dave", or "".
func (ms *matchScreen) matesText() string {
	if len(ms.mates) == 0 {
		return ""
	}
	return " · with " + strings.Join(ms.mates, ", ")
}

// jointKinds are the steps every player takes part in, one after the
// other, within another player's turn: a joint roll's dice shares, a
// shared deck's shuffle and the unmasking of dealt cards. Awaiting one
// player's part is not that player's turn.
var jointKinds = map[engine.NeedKind]string{engine.NeedRandom: "roll", engine.NeedShuffle: "shuffle", engine.NeedDeal: "deal"}

// noteMover follows whose turn it is: the player last awaited for a move
// or a commitment, or the local player once it has sent one.
func (ms *matchScreen) noteMover(n fairness.Note) {
	switch {
	case n.Dir == fairness.DirWait && (n.Need.Kind == engine.NeedMove || n.Need.Kind == engine.NeedCommit):
		ms.mover = n.Wait
	case n.Dir == fairness.DirLocal && n.Seat == ms.seat && (n.Kind == fairness.InMove || n.Kind == fairness.InCommit):
		ms.mover = ms.seat
	}
}

// waitTurnText says, for the title, whose turn it is while another player
// is awaited: that player's, unless only its part of a joint step is
// (then the turn is still the mover's: "gina's roll", "your roll").
func (ms *matchScreen) waitTurnText() string {
	step, joint := jointKinds[ms.waitNeed.Kind]
	switch {
	case !joint:
		return ms.name(ms.waitSeat) + "'s turn"
	case ms.mover == ms.seat:
		return "your " + step
	case ms.mover != engine.NoSeat && int(ms.mover) < len(ms.names):
		return fmt.Sprintf("%s's %s", ms.name(ms.mover), step)
	}
	return step
}

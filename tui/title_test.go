package tui

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/fairness"
	"github.com/salvo-game/salvo/tui/style"
)

// titleScreen is a match screen with only what the title's words need.
func titleScreen(names []string, seat engine.Seat) *matchScreen {
	th := style.New(false)
	ms := &matchScreen{names: names, seat: seat, waitSeat: engine.NoSeat, mover: engine.NoSeat, view: newPlainView(th)}
	ms.vlog = newVerifyLog(th)
	ms.feed = newEventFeed(th, ms.view)
	return ms
}

// TestTitleNamesTheMoverDuringAJointRoll: while only Eve's dice share is
// awaited during Gina's move, the title says it is Gina's roll, not
// "eve's turn"; a move awaited from Eve is Eve's turn.
func TestTitleNamesTheMoverDuringAJointRoll(t *testing.T) {
	ms := titleScreen([]string{"ann", "eve", "gina"}, 0)
	wait := func(seat engine.Seat, kind engine.NeedKind) {
		ms.note(fairness.Note{Dir: fairness.DirWait, Wait: seat, Need: engine.Need{Kind: kind, Seat: seat}})
	}
	for _, c := range []struct {
		do   func()
		want string
	}{
		{func() { wait(2, engine.NeedMove) }, "gina's turn"},
		{func() { ms.note(fairness.Note{Dir: fairness.DirIn, Seat: 2}); wait(1, engine.NeedRandom) }, "gina's roll"},
		{func() { wait(1, engine.NeedMove) }, "eve's turn"},
		{func() {
			ms.note(fairness.Note{Dir: fairness.DirLocal, Seat: 0, Kind: fairness.InMove, Text: "move: move of seat 0"})
			wait(2, engine.NeedRandom)
		}, "your roll"},
		{func() { wait(1, engine.NeedShuffle) }, "your shuffle"},
	} {
		c.do()
		if got := ms.turnText(); got != c.want {
			t.Errorf("title says %q, want %q", got, c.want)
		}
	}
}

// TestTeamTitleListsTheTeammateApart: in the Air team game, the title's
// "vs" lists the two opponents and names the teammate after "with".
func TestTeamTitleListsTheTeammateApart(t *testing.T) {
	g, err := air.New(engine.Setup{Seats: 4, Variant: air.VariantTeam})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"ann", "bob", "carol", "dave"}
	foes, mates := sides(names, 0, g)
	if opponentsText(foes, engine.NoSeat) != "bob, carol" || len(mates) != 1 || mates[0] != "dave" {
		t.Errorf("team game: vs %v, with %v", foes, mates)
	}
	g2, _ := air.New(engine.Setup{Seats: 4, Variant: air.VariantFreeForAll})
	if foes, mates := sides(names, 0, g2); len(foes) != 3 || len(mates) != 0 {
		t.Errorf("free-for-all: vs %v, with %v", foes, mates)
	}
}

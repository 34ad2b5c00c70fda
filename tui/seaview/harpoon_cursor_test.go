package seaview

import (
	"slices"
	"testing"

	"github.com/gdamore/tcell/v2"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/board/boardtest"
)

// TestHarpoonCursorStartsWhereEnterActs: with no ship in reach, the
// Harpoon's cursor started on the space it leaves from, where enter is
// refused; it starts on a destination, and enter sends the Harpoon there.
func TestHarpoonCursorStartsWhereEnterActs(t *testing.T) {
	d := find(t, func(d *driver, n engine.Need) bool {
		ds := d.g.HarpoonDestinations()
		return (isMove(n, sea.NeedLaunchPath) || isMove(n, sea.NeedHarpoonPath)) && len(ds) > 0 &&
			!slices.ContainsFunc(ds, func(d sea.Destination) bool { return d.Hit })
	})
	v := newView()
	req := d.ask(v)
	from, _ := d.g.PendingPath()
	dest, ok := v.path.at(v.cur)
	if !ok {
		t.Fatalf("the cursor starts on %s (the Harpoon leaves from %s), on no destination", v.cur, from.From)
	}
	boardtest.Press(t, v, tcell.KeyEnter)
	if m := moveOf(t, req); len(m.Path) == 0 || m.Path[len(m.Path)-1] != dest.Cell {
		t.Fatalf("path %v, want it to end at %s", m.Path, dest.Cell)
	}
	d.answer(req)
}

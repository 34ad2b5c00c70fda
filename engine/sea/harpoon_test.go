package sea

import (
	"testing"

	"github.com/salvo-game/salvo/engine"
)

// Figures 2 and 3: a Harpoon moves up to its roll; one that reaches a ship
// hits it, one that does not reach is removed at the end of its range.
func TestHarpoonRangeFigures(t *testing.T) {
	tests := []struct {
		name    string
		roll    int
		path    []string
		want    string // "" legal
		sunk    bool
		removed bool
	}{
		{"figure 2: a roll of 2 misses", 2, []string{"F9", "F10"}, "", false, true},
		{"figure 2: a roll of 2 cannot reach", 2, []string{"F9", "F10", "F11"}, "3 spaces with a roll of 2", false, false},
		{"figure 3: a roll of 5 hits", 5, []string{"F9", "F10", "F11", "F12", "F13"}, "", true, true},
		{"figure 3: a roll of 6 hits", 6, []string{"F9", "F10", "F11", "F12", "F13"}, "", true, true},
		{"figure 3: a roll of 4 falls short", 4, []string{"F9", "F10", "F11", "F12", "F13"}, "5 spaces with a roll of 4", false, false},
		{"not moving at all", 3, nil, "", false, true},
		{"not in straight lines", 5, []string{"G9", "G10", "G11", "G12", "F13"}, "", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			id := tg.addHarpoon(0, "F8")
			tg.at(0, 1)
			n := tg.need(engine.NeedRandom, "harpoon")
			if n.Seat != 0 {
				t.Fatalf("roll acted on by %s", n.Seat)
			}
			tg.roll(tt.roll)
			if p, ok := tg.Game.PendingPath(); !ok || p.Harpoon != id || p.Steps != tt.roll || p.From != mustCell(t, "F8") {
				t.Fatalf("PendingPath %+v %v", p, ok)
			}
			m := PathMove(cells(t, tt.path...))
			if tt.want != "" {
				tg.rejectsMove(0, m, tt.want)
				return
			}
			evs := tg.mustMove(0, m)
			if got := !tg.Game.sides[1].destroyers[0].alive; got != tt.sunk {
				t.Errorf("destroyer sunk = %v, want %v", got, tt.sunk)
			}
			if tt.removed && len(tg.Game.Harpoons()) != 0 {
				t.Errorf("Harpoon still in the water")
			}
			if !tt.sunk && !hasEvent(evs, "miss") {
				t.Errorf("no miss event: %v", evs)
			}
		})
	}
}

func TestHarpoonPaths(t *testing.T) {
	tests := []struct {
		name    string
		arrange func(tg *tgame)
		from    string
		roll    int
		path    []string
		want    string
	}{
		{"around shallows", nil, "I9", 2, []string{"J10"}, "shallow"},
		{"under fighters and Harpoons", func(tg *tgame) {
			tg.fly(1, 0, "D9", Harpoon)
			tg.addHarpoon(1, "D10")
		}, "D8", 3, []string{"D9", "D10", "D11"}, ""},
		{"never into its own ships", nil, "G5", 2, []string{"F4"}, "your own destroyer"},
		{"stops in the ship it hits", nil, "F11", 3, []string{"F12", "F13", "F14"}, "hits the destroyer at F13 and stops"},
		{"off the board", nil, "A9", 2, []string{"A10"}, ""},
		{"jumps", nil, "A9", 2, []string{"A11"}, "not next to"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tg := newTestGame(t)
			if tt.arrange != nil {
				tt.arrange(tg)
			}
			tg.addHarpoon(0, tt.from)
			tg.at(0, 1)
			tg.roll(tt.roll)
			m := PathMove(cells(t, tt.path...))
			if tt.want == "" {
				tg.mustMove(0, m)
				return
			}
			tg.rejectsMove(0, m, tt.want)
		})
	}
}

func TestHarpoonPickOrder(t *testing.T) {
	tg := newTestGame(t)
	a := tg.addHarpoon(0, "F8")
	b := tg.addHarpoon(0, "A9")
	enemy := tg.addHarpoon(1, "H5")
	tg.at(0, 1)
	tg.need(engine.NeedMove, NeedHarpoonPick)
	tg.rejectsMove(0, HarpoonMove(enemy), "not yours")
	tg.mustMove(0, HarpoonMove(b))
	tg.roll(1)
	tg.mustMove(0, PathMove(nil))
	// The last one needs no pick.
	tg.need(engine.NeedRandom, "harpoon")
	tg.roll(1)
	if p, _ := tg.Game.PendingPath(); p.Harpoon != a {
		t.Fatalf("moving Harpoon %d, want %d", p.Harpoon, a)
	}
	tg.mustMove(0, PathMove(nil))
	if hs := tg.Game.Harpoons(); len(hs) != 1 || hs[0].ID != enemy {
		t.Fatalf("Harpoons left %+v", hs)
	}
}

// A hit on an undamaged carrier: roll a die, the carrier's owner removes
// that many planes from its deck, and the Admiral Card turns over.
func TestHarpoonHitsCarrier(t *testing.T) {
	tg := newTestGame(t)
	tg.addHarpoon(0, "D10")
	tg.at(0, 1)
	tg.roll(3)
	evs := tg.mustMove(0, PathMove(cells(t, "D11", "D12", "D13")))
	if !hasEvent(evs, "damaged") || !tg.Game.Admiral(1).Damaged {
		t.Fatalf("carrier not damaged: %v", evs)
	}
	n := tg.need(engine.NeedRandom, "damage")
	if n.Seat != 0 {
		t.Errorf("damage roll acted on by %s, want the attacker", n.Seat)
	}
	tg.roll(3)
	n = tg.need(engine.NeedMove, NeedDamage)
	if owner, count, ok := tg.Game.PendingDamage(); n.Seat != 1 || owner != 1 || count != 3 || !ok {
		t.Fatalf("damage choice %+v: %v %d %v", n, owner, count, ok)
	}
	tg.rejectsMove(1, RemoveMove([]int{0, 1}), "exactly 3")
	tg.rejectsMove(1, RemoveMove([]int{0, 1, 1}), "named twice")
	tg.rejectsMove(1, RemoveMove([]int{0, 1, 9}), "not on your deck")
	tg.rejectsMove(0, RemoveMove([]int{0, 1, 2}), "seat 1 is to move")
	tg.mustMove(1, RemoveMove([]int{5, 6, 7}))
	if deck := tg.Game.Admiral(1).Deck; len(deck) != 5 || deck[4] != 4 {
		t.Errorf("deck after damage %v", deck)
	}
	// The turn goes on with step 2.
	tg.need(engine.NeedRandom, "scramble")
}

func TestCarrierDamageRollClearsSmallDeck(t *testing.T) {
	tg := newTestGame(t)
	for f := range 6 {
		tg.Game.loseFighter(1, f)
	}
	tg.addHarpoon(0, "D10")
	tg.at(0, 1)
	tg.roll(3)
	tg.mustMove(0, PathMove(cells(t, "D11", "D12", "D13")))
	tg.roll(2) // as many as are on deck: no choice to make
	if deck := tg.Game.Admiral(1).Deck; len(deck) != 0 {
		t.Fatalf("deck %v", deck)
	}
	tg.need(engine.NeedRandom, "scramble")
}

func TestHarpoonSinksDamagedCarrier(t *testing.T) {
	tg := newTestGame(t)
	tg.Game.sides[1].carrier.damaged = true
	tg.addHarpoon(0, "D10")
	tg.at(0, 1)
	tg.roll(3)
	evs := tg.mustMove(0, PathMove(cells(t, "D11", "D12", "D13")))
	if !hasEvent(evs, "sunk") || !tg.Game.Admiral(1).Sunk {
		t.Fatalf("carrier not sunk: %v", evs)
	}
	if tg.Game.Outcome().Done {
		t.Fatal("outcome done before the final reveal")
	}
	tg.open()
	tg.open()
	o := tg.Game.Outcome()
	if !o.Done || len(o.Winners) != 1 || o.Winners[0] != 0 || o.Draw {
		t.Fatalf("outcome %+v", o)
	}
	if tg.Game.Next().Kind != engine.NeedNone {
		t.Fatal("need after the end")
	}
}

func TestLaunchHarpoon(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 0, "D10", Harpoon)
	tg.fly(0, 1, "H9", Harpoon)
	tg.fly(1, 3, "D8", MissileNone)
	tg.at(0, 6)
	tg.need(engine.NeedMove, NeedLaunch)
	slots, err := tg.Game.MustOpen(0, LaunchMove(0).Encode())
	if err != nil || len(slots) != 1 || slots[0] != (engine.Slot{Owner: 0, Name: "load/1", Index: 0}) {
		t.Fatalf("MustOpen = %v, %v", slots, err)
	}
	tg.mustMove(0, LaunchMove(1))
	tg.need(engine.NeedRandom, "launch")
	tg.roll(2)
	if p, ok := tg.Game.PendingPath(); !ok || !p.Launch || p.From != mustCell(t, "H9") || p.Steps != 2 {
		t.Fatalf("PendingPath %+v", p)
	}
	tg.rejectsMove(0, PathMove(nil), "must move")
	tg.rejectsMove(0, PathMove(cells(t, "G9", "F9", "E9")), "3 spaces with a roll of 2")
	// It may end on an empty space only.
	tg.Game.sides[1].fighters[4] = fighter{state: InFlight, cell: mustCell(t, "F9"), load: -1}
	tg.rejectsMove(0, PathMove(cells(t, "G9", "F9")), "must end on an empty space")
	tg.Game.sides[1].fighters[4] = fighter{state: OnDeck, cell: NoCell, load: -1}
	tg.mustMove(0, PathMove(cells(t, "G10", "G11")))
	hs := tg.Game.Harpoons()
	if len(hs) != 1 || hs[0].Cell != mustCell(t, "G11") || hs[0].Owner != 0 {
		t.Fatalf("Harpoons %+v", hs)
	}
	if f := tg.Game.Fighters(0, tg.Secrets(0))[1]; f.Armed {
		t.Error("the launching fighter still carries a missile")
	}
	// Fighter 0 launches next, right next to the carrier: any roll hits.
	tg.mustMove(0, LaunchMove(0))
	tg.roll(1)
	dests := tg.Game.HarpoonDestinations()
	hit := false
	for _, d := range dests {
		hit = hit || (d.Hit && d.Cell == mustCell(t, "D11"))
	}
	if hit {
		t.Error("D11 listed as a hit")
	}
	tg.mustMove(0, PathMove(cells(t, "D11")))
	// Nothing left to launch: the turn passes after step 6.
	if tg.Game.Active() != 1 {
		t.Errorf("active %v after launching everything", tg.Game.Active())
	}
	// On seat 0's next turn both Harpoons move in step 1.
	tg.Game.startTurn(0)
	tg.need(engine.NeedMove, NeedHarpoonPick)
}

func TestLaunchNowhereToGo(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 0, "L1", Harpoon)
	tg.fly(0, 1, "K1", MissileNone)
	tg.fly(0, 2, "L2", MissileNone)
	tg.at(0, 6)
	tg.mustMove(0, LaunchMove(0))
	tg.roll(1)
	if d := tg.Game.HarpoonDestinations(); len(d) != 0 {
		t.Fatalf("destinations %v", d)
	}
	evs := tg.mustMove(0, PathMove(nil))
	if !hasEvent(evs, "lost") || len(tg.Game.Harpoons()) != 0 {
		t.Fatalf("events %v", evs)
	}
}

func TestLaunchHitsCarrierAdjacent(t *testing.T) {
	tg := newTestGame(t)
	tg.fly(0, 0, "C12", Harpoon)
	tg.at(0, 6)
	tg.mustMove(0, LaunchMove(0))
	tg.roll(1)
	var hit *Destination
	for _, d := range tg.Game.HarpoonDestinations() {
		if d.Hit {
			hit = &d
		}
	}
	if hit == nil || hit.Cell != mustCell(t, "D13") {
		t.Fatalf("no hit on the carrier among %v", tg.Game.HarpoonDestinations())
	}
	tg.mustMove(0, PathMove(hit.Path))
	if !tg.Game.Admiral(1).Damaged {
		t.Fatal("carrier not damaged")
	}
	tg.roll(6)
	if _, n, ok := tg.Game.PendingDamage(); !ok || n != 6 {
		t.Fatalf("PendingDamage %d %v", n, ok)
	}
}

package seaview

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine/sea"
	"github.com/salvo-game/salvo/tui/keys"
	"github.com/salvo-game/salvo/tui/style"
)

// scrambling is a scramble being planned: one flight per die used.
type scrambling struct {
	dice    []int
	flights []sea.Flight
	fighter int // selected fighter, -1 for none
	die     int // selected die, -1 for none
	sel     int // destination cycled to with n
}

func (s *scrambling) start(v *View) {
	s.dice = v.g.ScrambleRoll()
	s.flights = nil
	s.fighter, s.die = -1, -1
	s.pickNext(v)
}

// candidates lists the fighters that may still fly this scramble: those in
// flight, then those on deck that did not just return.
func (s *scrambling) candidates(v *View) []int {
	var air, deck []int
	for _, f := range v.fighters(v.seat()) {
		if s.planned(f.Index) >= 0 {
			continue
		}
		switch {
		case f.State == sea.InFlight:
			air = append(air, f.Index)
		case f.State == sea.OnDeck && !f.Returned:
			deck = append(deck, f.Index)
		}
	}
	return append(air, deck...)
}

// planned returns the index of fighter f's flight, or -1.
func (s *scrambling) planned(f int) int {
	return slices.IndexFunc(s.flights, func(fl sea.Flight) bool { return fl.Fighter == f })
}

// dieUsed reports whether die i has a flight.
func (s *scrambling) dieUsed(i int) bool {
	return slices.ContainsFunc(s.flights, func(fl sea.Flight) bool { return fl.Die == i })
}

// bestDie returns the largest unused die, or -1.
func (s *scrambling) bestDie() int {
	best := -1
	for i, f := range s.dice {
		if !s.dieUsed(i) && (best < 0 || f > s.dice[best]) {
			best = i
		}
	}
	return best
}

// pickNext selects the next fighter and the largest free die.
func (s *scrambling) pickNext(v *View) {
	s.die = s.bestDie()
	s.fighter = -1
	if cs := s.candidates(v); len(cs) > 0 && s.die >= 0 {
		s.chooseFighter(v, cs[0])
	}
}

// start returns where fighter f starts its flight: its space, or the
// launch space for a take-off.
func (v *View) flightStart(f int) sea.Cell {
	fv := v.fighters(v.seat())[f]
	if fv.State == sea.InFlight {
		return fv.Cell
	}
	return v.fr().carriers[v.seat()].Launch
}

// chooseFighter selects fighter f and puts the cursor on it.
func (s *scrambling) chooseFighter(v *View, f int) {
	if !slices.Contains(s.candidates(v), f) {
		if s.planned(f) >= 0 {
			v.life.Msg = fmt.Sprintf("fighter %d already has a flight (u undoes the last)", f)
		} else {
			v.life.Msg = fmt.Sprintf("fighter %d cannot scramble this turn", f)
		}
		return
	}
	s.fighter, s.sel = f, -1
	if c := v.flightStart(f); c.Valid() {
		v.cur = c
	}
}

// chooseDie selects die i.
func (s *scrambling) chooseDie(v *View, i int) {
	switch {
	case i < 0 || i >= len(s.dice):
		v.life.Msg = fmt.Sprintf("there are %d dice", len(s.dice))
	case s.dieUsed(i):
		v.life.Msg = fmt.Sprintf("die %d is used already (u undoes the last flight)", i+1)
	default:
		s.die, s.sel = i, -1
	}
}

// dests lists where the selected fighter can go with the selected die.
func (s *scrambling) dests(v *View) []sea.Destination {
	if s.fighter < 0 || s.die < 0 || s.die >= len(s.dice) {
		return nil
	}
	ds := v.g.FighterDestinations(v.seat(), s.fighter, s.dice[s.die], s.flights)
	v.byFoe(ds)
	return ds
}

// plannedAt returns the fighter whose planned flight ends on c, or -1.
func (s *scrambling) plannedAt(c sea.Cell) int {
	for _, fl := range s.flights {
		if fl.Path[len(fl.Path)-1] == c {
			return fl.Fighter
		}
	}
	return -1
}

// enter: on a fighter that may fly, select it; on a destination, plan the
// flight there.
func (s *scrambling) enter(v *View) {
	for _, d := range s.dests(v) {
		if d.Cell == v.cur {
			s.flights = append(s.flights, sea.Flight{Fighter: s.fighter, Die: s.die, Path: d.Path})
			s.pickNext(v)
			return
		}
	}
	if f := v.ownFighterAt(v.cur); f >= 0 && s.plannedAt(v.cur) < 0 {
		s.chooseFighter(v, f)
		return
	}
	switch {
	case s.die < 0:
		v.life.Msg = "every die has a flight: f flies them"
	case s.fighter < 0:
		v.life.Msg = "no fighter selected: tab picks one"
	default:
		v.life.Msg = fmt.Sprintf("fighter %d cannot stop at %s with a %d", s.fighter, v.cur, s.dice[s.die])
	}
}

// nextDest puts the cursor on the next destination.
func (s *scrambling) nextDest(v *View) {
	ds := s.dests(v)
	if len(ds) == 0 {
		v.life.Msg = "the selected fighter has nowhere to go with that die"
		return
	}
	s.sel = (s.sel + 1) % len(ds)
	v.cur = ds[s.sel].Cell
}

// cycle selects the next fighter that may fly.
func (s *scrambling) cycle(v *View, d int) {
	cs := s.candidates(v)
	if len(cs) == 0 {
		v.life.Msg = "no fighter is left to fly"
		return
	}
	i := slices.Index(cs, s.fighter)
	if i < 0 && d < 0 {
		i = 0
	}
	s.chooseFighter(v, cs[(i+d+len(cs))%len(cs)])
}

// undo drops the last planned flight.
func (s *scrambling) undo(v *View) {
	if len(s.flights) == 0 {
		v.life.Msg = "no flight planned"
		return
	}
	last := s.flights[len(s.flights)-1]
	s.flights = s.flights[:len(s.flights)-1]
	s.die = last.Die
	s.chooseFighter(v, last.Fighter)
}

func (s *scrambling) prompt(v *View) string {
	n := len(s.flights)
	if s.die < 0 || s.fighter < 0 {
		return fmt.Sprintf("Scramble %s: %s planned — f flies them (u undoes the last)", dice(s.dice), count(n, "flight"))
	}
	from := "in flight"
	if v.fighters(v.seat())[s.fighter].State == sea.OnDeck {
		from = "deck"
	}
	return fmt.Sprintf("Scramble %s: fighter %d (%s) with the %d — enter at a %s plans it, f flies %d",
		dice(s.dice), s.fighter, from, s.dice[s.die], gReach, n)
}

// overlay draws the planned flights, the selected fighter's reach and the
// path to the cursor.
func (s *scrambling) overlay(v *View, out map[sea.Cell]look) {
	th := v.th
	fs := v.fighters(v.seat())
	for _, fl := range s.flights {
		if f := fs[fl.Fighter]; f.State == sea.InFlight {
			out[f.Cell] = look{gLeft, th.Dim}
		}
	}
	for _, fl := range s.flights {
		v.drawPath(out, fl.Path)
		out[fl.Path[len(fl.Path)-1]] = look{fighterGlyph(fs[fl.Fighter], true), th.Mark.Underline(true)}
	}
	ds := s.dests(v)
	for _, d := range ds {
		if _, taken := out[d.Cell]; !taken {
			out[d.Cell] = look{gReach, th.Ghost}
		}
	}
	for _, d := range ds {
		if d.Cell == v.cur {
			v.drawPath(out, d.Path)
		}
	}
}

// draw lists the dice with their flights and the fighters that may fly.
func (s *scrambling) draw(v *View, p *pane) {
	th := v.th
	p.line(style.S("Scramble dice", th.Accent))
	for i, f := range s.dice {
		ptr, st := " ", th.Base
		if i == s.die {
			ptr, st = gPointer, th.Selected
		}
		use := "free"
		for _, fl := range s.flights {
			if fl.Die == i {
				use = fmt.Sprintf("fighter %d → %s", fl.Fighter, fl.Path[len(fl.Path)-1])
				st = th.Dim
			}
		}
		p.clickable(paneRow{rowDie, i}, style.S(ptr, th.Accent), style.S(fmt.Sprintf("%d %s ", i+1, diceGlyphs([]int{f})), st), style.S(use, th.Dim))
	}
	fs := v.fighters(v.seat())
	var air, deck []token
	for _, f := range s.candidates(v) {
		st := th.Base
		if f == s.fighter {
			st = th.Selected
		}
		if fs[f].State == sea.InFlight {
			air = append(air, token{paneRow{rowFighter, f}, fmt.Sprintf("%d(%d)%s", f, fs[f].Strength, fs[f].Cell), st})
		} else {
			deck = append(deck, token{paneRow{rowFighter, f}, fmt.Sprintf("%d(%d)", f, fs[f].Strength), st})
		}
	}
	if len(air) > 0 {
		p.tokens("air ", th.Dim, air)
	}
	if len(deck) > 0 {
		p.tokens("deck ", th.Dim, deck)
	}
}

func (v *View) scrambleBindings() []keys.Binding {
	s := &v.scr
	bs := append(arrowBindings("aim", "move the cursor: the flight path to it is drawn when the fighter can stop there", v.move),
		bind(keys.Enter, "enter", "plan", "plan the selected fighter's flight to the cursor, or select your fighter under it (a click too)", func() { s.enter(v) }),
		bind(keys.Tab, "tab", "fighter", "select the next fighter that may fly (in flight first, then on deck; a click on its row too)", func() { s.cycle(v, 1) }),
		keys.Binding{Keys: keys.Backtab, Label: "shift-tab", Hint: "previous", Hidden: true, Help: "select the previous fighter", Run: func() { s.cycle(v, -1) }},
		bind(runes('f'), "f", fmt.Sprintf("fly %d", len(s.flights)), "fly the planned flights (none: no fighter moves); a fighter taking off then loads a missile", func() { v.replyMove(sea.ScrambleMove(s.flights)) }),
		bind(runes('u'), "u", "undo", "drop the last planned flight", func() { s.undo(v) }),
		bind(runes('n'), "n", "next place", "put the cursor on the next place the fighter can reach with the die, nearest the enemy carrier first", func() { s.nextDest(v) }),
	)
	for i := range s.dice {
		b := keys.Binding{Keys: runes(rune('1' + i)), Label: fmt.Sprintf("1-%d", len(s.dice)), Hint: "die", Hidden: i > 0,
			Help: "use that die of the roll (in the order rolled) for the selected fighter", Run: func() { s.chooseDie(v, i) }}
		bs = append(bs, b)
	}
	return bs
}

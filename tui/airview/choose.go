package airview

import (
	"fmt"
	"slices"
	"strings"

	"github.com/salvo-game/salvo/engine"
	"github.com/salvo-game/salvo/engine/air"
	"github.com/salvo-game/salvo/tui/keys"
)

// choice is the round's secret card choice in the making: a hand card for
// each plane flying.
type choice struct {
	cursor int                 // the hand card under the cursor
	plane  int                 // the plane being armed
	given  map[int]air.CardRef // plane ID → its card
}

// start begins a choice with nothing given, arming the first plane.
func (c *choice) start(v *View) {
	c.cursor, c.plane, c.given = 0, -1, map[int]air.CardRef{}
	if ps := c.planes(v); len(ps) > 0 {
		c.plane = ps[0].ID
	}
}

// planes are the viewer's planes flying, in ID order (F-35 first).
func (c *choice) planes(v *View) []air.Plane {
	if v.game() == nil {
		return nil
	}
	return flying(v.game(), v.seat())
}

// hand is the viewer's hand, in hand order.
func (c *choice) hand(v *View) []air.CardRef {
	if v.game() == nil {
		return nil
	}
	return v.game().Hand(v.seat())
}

// want is how many cards the choice names: one per plane flying, fewer
// only if the hand ran short.
func (c *choice) want(v *View) int { return min(len(c.planes(v)), len(c.hand(v))) }

// holder returns the plane a hand card is given to, or -1.
func (c *choice) holder(ref air.CardRef) int {
	for id, r := range c.given {
		if r == ref {
			return id
		}
	}
	return -1
}

// give gives hand card i to the plane being armed (taking it from another
// plane that had it) and moves on to a plane still without a card.
func (c *choice) give(v *View, i int) {
	hand := c.hand(v)
	if i < 0 || i >= len(hand) {
		v.life.Msg = fmt.Sprintf("the hand has %d cards", len(hand))
		return
	}
	if _, ok := v.game().PlaneByID(c.plane); !ok {
		return
	}
	ref := hand[i]
	if id := c.holder(ref); id >= 0 {
		delete(c.given, id)
	}
	c.given[c.plane] = ref
	for _, p := range c.planes(v) {
		if _, ok := c.given[p.ID]; !ok && len(c.given) < c.want(v) {
			c.plane = p.ID
			break
		}
	}
}

// next arms the next plane (d = 1) or the previous one.
func (c *choice) next(v *View, d int) {
	ps := c.planes(v)
	if len(ps) == 0 {
		return
	}
	i := slices.IndexFunc(ps, func(p air.Plane) bool { return p.ID == c.plane })
	c.plane = ps[(max(i, 0)+d+len(ps))%len(ps)].ID
}

// move moves the hand cursor.
func (c *choice) move(v *View, d int) {
	if n := len(c.hand(v)); n > 0 {
		c.cursor = (c.cursor + d + n) % n
	}
}

// random gives every plane a random card of the hand (a random legal
// choice).
func (c *choice) random(v *View) {
	hand := c.hand(v)
	ps := c.planes(v)
	c.given = map[int]air.CardRef{}
	perm := v.rand.Perm(len(hand))
	for i := range c.want(v) {
		c.given[ps[i].ID] = hand[perm[i]]
	}
	if len(ps) > 0 {
		c.plane = ps[0].ID
	}
}

// build returns the choice as the engine reads it, planes in ID order.
func (c *choice) build(v *View) air.Choice {
	var ch air.Choice
	for _, p := range c.planes(v) {
		if ref, ok := c.given[p.ID]; ok {
			ch.Cards = append(ch.Cards, air.PlaneCard{Plane: p.ID, Deck: ref.Deck, Pos: ref.Pos})
		}
	}
	return ch
}

// play sends the choice once it is complete and the engine accepts it.
func (c *choice) play(v *View) {
	if v.life.Req == nil {
		return
	}
	ch := c.build(v)
	if want := c.want(v); len(ch.Cards) < want {
		for _, p := range c.planes(v) {
			if _, ok := c.given[p.ID]; !ok {
				v.life.Msg = fmt.Sprintf("the %s has no card yet (%d of %d given)", p.Name(), len(ch.Cards), want)
				c.plane = p.ID
				return
			}
		}
	}
	if err := checkChoice(v.life.Req.Game, v.life.Req.Need, v.life.Req.Seat, ch); err != nil {
		v.life.Msg = v.life.Snap.Refusal(err)
		return
	}
	v.reply(engine.Decision{Choice: air.EncodeChoice(ch)})
}

// checkChoice asks the engine whether seat's choice is legal: it applies
// the round's choices to a copy of the game, the other seats choosing the
// first cards of their hands (their hands' places are public), and keeps
// only an error that blames seat.
func checkChoice(eg engine.Game, n engine.Need, seat engine.Seat, ch air.Choice) error {
	g, ok := eg.(*air.Game)
	if !ok {
		return nil
	}
	g = g.Clone().(*air.Game)
	choices := make([][]byte, len(n.Seats))
	for i, s := range n.Seats {
		if s == seat {
			choices[i] = air.EncodeChoice(ch)
			continue
		}
		var other air.Choice
		hand := g.Hand(s)
		for j, p := range flying(g, s) {
			if j < len(hand) {
				other.Cards = append(other.Cards, air.PlaneCard{Plane: p.ID, Deck: hand[j].Deck, Pos: hand[j].Pos})
			}
		}
		choices[i] = air.EncodeChoice(other)
	}
	_, err := g.Apply(engine.Input{Kind: engine.NeedChoice, Seat: engine.NoSeat, Choices: choices})
	if err != nil && engine.Blame(err, engine.NoSeat) == seat {
		return err
	}
	return nil
}

// prompt says what the choice needs next.
func (c *choice) prompt(v *View) string {
	want := c.want(v)
	if len(c.given) >= want {
		var parts []string
		for _, p := range c.planes(v) {
			if ref, ok := c.given[p.ID]; ok {
				parts = append(parts, p.Kind.String()+" "+v.cardName(ref))
			}
		}
		return fmt.Sprintf("enter plays %s (chosen in secret, turned over together)", strings.Join(parts, ", "))
	}
	name := "?"
	if p, ok := v.game().PlaneByID(c.plane); ok {
		name = p.Name()
	}
	return fmt.Sprintf("Choose a card for the %s (%d of %d given): space or 1-%d gives it, x a random choice", name, len(c.given), want, len(c.hand(v)))
}

// cardName is a hand card's number, or its place if the viewer does not
// know it.
func (v *View) cardName(ref air.CardRef) string {
	if cd, ok := v.card(ref, 0); ok {
		return fmt.Sprintf("#%d", cd.Number)
	}
	return ref.String()
}

// bindings are the keys of the choice.
func (c *choice) bindings(v *View) []keys.Binding {
	bs := []keys.Binding{
		{Keys: keys.Up, Label: "↑↓", Hint: "card", Help: "move in your hand", Run: func() { c.move(v, -1) }},
		{Keys: keys.Down, Label: "↓", Hint: "card", Hidden: true, Run: func() { c.move(v, 1) }},
		{Keys: []keys.Key{keys.R(' ')}, Label: "space", Hint: "give", Help: "give the card under the cursor to the plane being armed", Run: func() { c.give(v, c.cursor) }},
		{Keys: keys.Tab, Label: "tab", Hint: "plane", Help: "arm the other plane", Run: func() { c.next(v, 1) }},
		{Keys: keys.Backtab, Label: "shift-tab", Hint: "plane", Hidden: true, Help: "arm the previous plane", Run: func() { c.next(v, -1) }},
		{Keys: []keys.Key{keys.R('x')}, Label: "x", Hint: "random", Help: "give every plane a random card of your hand", Run: func() { c.random(v) }},
		{Keys: []keys.Key{keys.R('u')}, Label: "u", Hint: "clear", Hidden: true, Help: "take back every card given", Run: func() { c.given = map[int]air.CardRef{} }},
		{Keys: keys.Enter, Label: "enter", Hint: "play", Help: "play the choice: it is committed in secret, then every squadron's is turned over together", Run: func() { c.play(v) }},
	}
	n := len(c.hand(v))
	for i := range n {
		bs = append(bs, keys.Binding{Keys: []keys.Key{keys.R(rune('1' + i))}, Label: fmt.Sprintf("1-%d", n), Hint: "give", Hidden: true,
			Help: fmt.Sprintf("give the hand's card 1 to %d to the plane being armed", n), Run: func() { c.cursor = i; c.give(v, i) }})
	}
	return bs
}

package air

import (
	"fmt"
	"slices"

	"github.com/salvo-game/salvo/engine"
)

// seatAlive reports whether a seat still has a plane.
func (g *Game) seatAlive(seat int) bool {
	return !g.planes[2*seat].Down || !g.planes[2*seat+1].Down
}

// remaining is how many cards of the current draw pile are not yet dealt.
func (g *Game) remaining() int {
	if len(g.decks) == 0 {
		return 0
	}
	d := &g.decks[len(g.decks)-1]
	return d.size - d.next
}

func (g *Game) dealCount(seat int) int {
	return min(HandSize-len(g.hands[seat]), g.remaining())
}

// nextShuffle returns the name and the cards of the next shuffle: the whole
// deck at the start, then the discard pile.
func (g *Game) nextShuffle() (string, []Played) {
	if len(g.decks) == 0 {
		cards := make([]Played, DeckSize)
		for i := range cards {
			cards[i] = Played{Plane: -1, Number: i + 1}
		}
		return DeckNameOf(1), cards
	}
	return DeckNameOf(len(g.decks) + 1), g.discard
}

// refill moves on to the next seat that must draw (from g.cursor on),
// reshuffling the discard pile when the draw pile is empty, and starts the
// card choice once every hand is full.
func (g *Game) refill() {
	if len(g.decks) == 0 {
		g.phase = phShuffle
		return
	}
	for ; g.cursor < g.seats; g.cursor++ {
		if !g.seatAlive(g.cursor) || len(g.hands[g.cursor]) >= HandSize {
			continue
		}
		if g.remaining() > 0 {
			g.phase = phDeal
			return
		}
		if len(g.discard) > 0 {
			g.phase = phShuffle
			return
		}
		// No card left anywhere: the hand stays short.
	}
	g.startChoice()
}

func (g *Game) applyShuffle(ev *events, need engine.Need) error {
	name, cards := g.nextShuffle()
	d := deckState{size: len(cards), known: make([]int, len(cards))}
	for _, c := range cards {
		d.left[c.Number]++
	}
	g.decks = append(g.decks, d)
	if len(g.decks) > 1 {
		ev.add(engine.NoSeat, "reshuffle", "the discard pile (%d cards) is shuffled into a new draw pile %q", len(cards), name)
		g.discard = nil
	} else {
		ev.add(engine.NoSeat, "shuffle", "the %d Navigation cards are shuffled", len(cards))
	}
	g.refill()
	return nil
}

func (g *Game) applyDeal(ev *events, need engine.Need, in engine.Input) error {
	if in.Seat != need.Seat {
		return engine.Illegal("deal for %s arrived for %s", in.Seat, need.Seat)
	}
	d := &g.decks[len(g.decks)-1]
	if len(in.Cards) != need.Count {
		return engine.Illegal("deal of %d cards to %s carries %d positions", need.Count, need.Seat, len(in.Cards))
	}
	for i, p := range in.Cards {
		if p != d.next+i {
			return engine.Illegal("deal to %s: card %d is position %d of %q, but the next card of the draw pile is position %d", need.Seat, i, p, need.Name, d.next+i)
		}
	}
	seat := int(need.Seat)
	for _, p := range in.Cards {
		g.hands[seat] = append(g.hands[seat], CardRef{Deck: len(g.decks), Pos: p})
	}
	d.next += len(in.Cards)
	ev.add(need.Seat, "deal", "%s draws %d card(s)", Squadron[seat], len(in.Cards))
	g.refill()
	return nil
}

// startChoice opens the simultaneous card choice of the round.
func (g *Game) startChoice() {
	g.choosers = nil
	g.order = nil
	for s := range g.seats {
		if g.seatAlive(s) && len(g.hands[s]) > 0 {
			g.choosers = append(g.choosers, engine.Seat(s))
		}
	}
	if len(g.choosers) == 0 {
		g.finish(nil, true, "no Navigation card is left to play")
		return
	}
	g.phase = phChoice
	g.cursor = 0
}

// Choice is a seat's secret card choice of a round: one card from its hand
// for each of its planes still flying (each plane once, each card once).
type Choice struct {
	Cards []PlaneCard `json:"cards"`
}

// PlaneCard assigns a hand card to a plane.
type PlaneCard struct {
	Plane int `json:"plane"`
	Deck  int `json:"deck"`
	Pos   int `json:"pos"`
}

// EncodeChoice encodes a choice for Decision.Choice.
func EncodeChoice(c Choice) []byte { return engine.MustEncodeMove(c) }

// cardsToChoose is how many cards a seat plays this round: one per plane
// flying (fewer only if its hand ran short).
func (g *Game) cardsToChoose(seat int) int {
	n := 0
	for _, p := range g.seatPlanes(seat) {
		if !p.Down {
			n++
		}
	}
	return min(n, len(g.hands[seat]))
}

func (g *Game) seatPlanes(seat int) []Plane { return g.planes[2*seat : 2*seat+2] }

// checkChoice validates one seat's choice.
func (g *Game) checkChoice(seat int, raw []byte) ([]Played, error) {
	var c Choice
	if err := engine.DecodeMove(raw, &c); err != nil {
		return nil, fmt.Errorf("choice: %w", err)
	}
	want := g.cardsToChoose(seat)
	if len(c.Cards) != want {
		return nil, engine.Illegal("choice names %d cards, want one for each of the %d plane(s) flying", len(c.Cards), want)
	}
	var out []Played
	for i, pc := range c.Cards {
		if pc.Plane < 0 || pc.Plane >= len(g.planes) || int(g.planes[pc.Plane].Seat) != seat {
			return nil, engine.Illegal("choice %d: plane %d is not one of %s's", i, pc.Plane, Squadron[seat])
		}
		if g.planes[pc.Plane].Down {
			return nil, engine.Illegal("choice %d: the %s was shot down", i, g.planes[pc.Plane].Name())
		}
		ref := CardRef{Deck: pc.Deck, Pos: pc.Pos}
		if !slices.Contains(g.hands[seat], ref) {
			return nil, engine.Illegal("choice %d: card %s is not in %s's hand", i, ref, Squadron[seat])
		}
		for _, o := range out {
			if o.Plane == pc.Plane {
				return nil, engine.Illegal("choice %d: two cards for the %s", i, g.planes[pc.Plane].Name())
			}
			if o.Card == ref {
				return nil, engine.Illegal("choice %d: card %s chosen twice", i, ref)
			}
		}
		out = append(out, Played{Plane: pc.Plane, Card: ref})
	}
	return out, nil
}

func (g *Game) applyChoice(ev *events, need engine.Need, in engine.Input) error {
	if in.Seat != engine.NoSeat {
		return engine.Illegal("a choice is joint: input seat must be %s, got %s", engine.NoSeat, in.Seat)
	}
	if len(in.Choices) != len(need.Seats) {
		return engine.Illegal("%d choices for %d seats", len(in.Choices), len(need.Seats))
	}
	var all []Played
	for i, seat := range need.Seats {
		ps, err := g.checkChoice(int(seat), in.Choices[i])
		if err != nil {
			return &engine.Fault{Seat: seat, Err: err}
		}
		all = append(all, ps...)
	}
	for _, p := range all {
		seat := int(g.planes[p.Plane].Seat)
		g.hands[seat] = slices.DeleteFunc(g.hands[seat], func(c CardRef) bool { return c == p.Card })
	}
	g.order = all
	g.phase = phOpen
	g.cursor = 0
	ev.add(engine.NoSeat, "choose", "round %d: every squadron leader has chosen", g.round)
	return nil
}

// OpensAfter returns the seats whose NeedOpen follow choice n: every
// chooser, in the order of n.Seats ([engine.ChoiceOpener]).
func (g *Game) OpensAfter(n engine.Need) []engine.Seat { return slices.Clone(n.Seats) }

// OpenOf returns the NeedOpen of seat after choice n, seat having chosen
// choice: the slots of the cards it names, in its order, as openSlots will
// list them once every choice is in ([engine.ChoiceOpener]).
func (g *Game) OpenOf(n engine.Need, seat engine.Seat, choice []byte) (engine.Need, error) {
	if g.phase != phChoice || !slices.Contains(n.Seats, seat) {
		return engine.Need{}, fmt.Errorf("air: %s opens nothing after this choice", seat)
	}
	ps, err := g.checkChoice(int(seat), choice)
	if err != nil {
		return engine.Need{}, err
	}
	open := make([]engine.Slot, 0, len(ps))
	for _, p := range ps {
		open = append(open, p.Card.Slot())
	}
	return engine.Need{Kind: engine.NeedOpen, Seat: seat, Open: open, Prompt: openPrompt}, nil
}

// openSlots lists the slots of the cards seat chose this round.
func (g *Game) openSlots(seat engine.Seat) []engine.Slot {
	var out []engine.Slot
	for _, p := range g.order {
		if g.planes[p.Plane].Seat == seat {
			out = append(out, p.Card.Slot())
		}
	}
	return out
}

func (g *Game) applyOpen(ev *events, need engine.Need, in engine.Input) error {
	if in.Seat != need.Seat {
		return engine.Illegal("opening for %s arrived from %s", need.Seat, in.Seat)
	}
	if len(in.Opened) != len(need.Open) {
		return engine.Illegal("%s must open %d card(s), opened %d", need.Seat, len(need.Open), len(in.Opened))
	}
	for i, slot := range need.Open {
		o := in.Opened[i]
		if o.Slot != slot {
			return engine.Illegal("opening %d is %s, want %s", i, o.Slot, slot)
		}
		num, err := g.reveal(o)
		if err != nil {
			return err
		}
		for j := range g.order {
			if g.order[j].Card.Slot() == slot {
				g.order[j].Number = num
				c, _ := CardByNumber(num)
				ev.add(need.Seat, "reveal", "%s: %s", g.planes[g.order[j].Plane].Name(), c)
			}
		}
	}
	g.cursor++
	if g.cursor < len(g.choosers) {
		return nil
	}
	g.startTurns(ev)
	return nil
}

// startTurns begins the planes' turns once every chosen card is face up:
// lowest number first (text).
func (g *Game) startTurns(ev *events) {
	slices.SortStableFunc(g.order, func(a, b Played) int { return a.Number - b.Number })
	g.phase = phTurn
	g.ts = turnState{index: -1}
	g.nextTurn(ev)
}

// reveal checks an opened Navigation card against the public record of its
// deck: a number 1..60 that this deck still holds unrevealed (the deck
// protocol's proofs make a false one impossible; this keeps the engine
// honest on its own).
func (g *Game) reveal(o engine.Opened) (int, error) {
	gen, ok := deckGen(o.Slot.Name)
	if !ok || gen > len(g.decks) || o.Slot.Owner != engine.NoSeat {
		return 0, engine.Illegal("slot %s is not a Navigation card", o.Slot)
	}
	d := &g.decks[gen-1]
	if o.Slot.Index < 0 || o.Slot.Index >= d.next {
		return 0, engine.Illegal("slot %s was never dealt", o.Slot)
	}
	if len(o.Value) != 1 {
		return 0, engine.Illegal("card %s: value is %d bytes, want 1", o.Slot, len(o.Value))
	}
	num := int(o.Value[0])
	if num < 1 || num > DeckSize {
		return 0, engine.Illegal("card %s: number %d is not 1..%d", o.Slot, num, DeckSize)
	}
	if d.known[o.Slot.Index] != 0 {
		return 0, engine.Illegal("card %s was already revealed", o.Slot)
	}
	if d.left[num] == 0 {
		return 0, engine.Illegal("card %s: number %d is not among the unrevealed cards of %q", o.Slot, num, o.Slot.Name)
	}
	d.left[num]--
	d.known[o.Slot.Index] = num
	return num, nil
}

// deckGen parses a deck name into its generation.
func deckGen(name string) (int, bool) {
	if name == DeckName {
		return 1, true
	}
	var k int
	if _, err := fmt.Sscanf(name, DeckName+"/%d", &k); err != nil || k < 2 || DeckNameOf(k) != name {
		return 0, false
	}
	return k, true
}

// endRound starts the next round.
func (g *Game) endRound(ev *events) {
	if g.outcome.Done {
		return
	}
	g.round++
	if g.round > MaxRounds {
		g.finish(nil, true, fmt.Sprintf("no result after %d rounds", MaxRounds))
		return
	}
	g.order = nil
	g.choosers = nil
	g.cursor = 0
	ev.add(engine.NoSeat, "round", "round %d", g.round)
	g.refill()
}

// finish ends the match.
func (g *Game) finish(winners []engine.Seat, draw bool, reason string) {
	g.outcome = engine.Outcome{Done: true, Winners: winners, Draw: draw, Reason: reason}
	g.phase = phOver
	g.pend = pending{}
}

// opposes reports whether seats a and b are opponents.
func (g *Game) opposes(a, b engine.Seat) bool {
	if a == b {
		return false
	}
	return !g.team || Team(int(a)) != Team(int(b))
}

// checkOutcome ends the match once the rules say so.
func (g *Game) checkOutcome(ev *events) {
	if g.outcome.Done {
		return
	}
	if g.team {
		var out [2]bool
		for s := range g.seats {
			if !g.seatAlive(s) {
				out[Team(s)] = true
			}
		}
		switch {
		case out[0] && out[1]:
			g.finish(nil, true, "both teams lost a squadron at once")
		case out[0] || out[1]:
			win := 0
			if out[0] {
				win = 1
			}
			var ws []engine.Seat
			for s := range g.seats {
				if Team(s) == win {
					ws = append(ws, engine.Seat(s))
				}
			}
			g.finish(ws, false, "eliminated a squadron of the other team")
		}
	} else {
		var alive []engine.Seat
		for s := range g.seats {
			if g.seatAlive(s) {
				alive = append(alive, engine.Seat(s))
			}
		}
		switch len(alive) {
		case 0:
			g.finish(nil, true, "the last planes went down together")
		case 1:
			reason := "shot down both opposing planes"
			switch {
			case g.gone != 0:
				reason = "last player standing"
			case g.seats > 2:
				reason = "last squadron flying"
			}
			g.finish(alive, false, reason)
		}
	}
	if g.outcome.Done {
		if g.outcome.Draw {
			ev.add(engine.NoSeat, "draw", "draw: %s", g.outcome.Reason)
		} else {
			for _, s := range g.outcome.Winners {
				ev.add(s, "win", "%s wins: %s", Squadron[s], g.outcome.Reason)
			}
		}
	}
}

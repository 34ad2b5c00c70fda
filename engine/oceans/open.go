package oceans

import (
	"fmt"

	"github.com/salvo-game/salvo/engine"
)

// openedCards checks that opened holds exactly the slots want (in any
// order, each once) and returns their cards in the order of want. Each
// card is checked against the owner's deck list: a leaf that is no fleet
// card, or one card too many of a kind, is a fault of the owner.
func (g *Game) openedCards(want []engine.Slot, opened []engine.Opened) ([]Card, error) {
	if len(opened) != len(want) {
		return nil, engine.Illegal("%d slots opened, want %d (%v)", len(opened), len(want), want)
	}
	pos := make(map[engine.Slot]int, len(want))
	for i, s := range want {
		pos[s] = i
	}
	cards := make([]Card, len(want))
	for _, o := range opened {
		i, ok := pos[o.Slot]
		if !ok {
			return nil, engine.Illegal("slot %v opened, it was not asked for", o.Slot)
		}
		if cards[i] != NoCard {
			return nil, engine.Illegal("slot %v opened twice", o.Slot)
		}
		c, err := DecodeCard(o.Value)
		if err != nil {
			return nil, &engine.Fault{Seat: o.Slot.Owner, Err: fmt.Errorf("opening %v: %w", o.Slot, err)}
		}
		cards[i] = c
	}
	return cards, nil
}

// learn records opened cards as known, faulting the owner if a kind now
// exceeds its count in the deck list.
func (g *Game) learn(slots []engine.Slot, cards []Card) error {
	for i, s := range slots {
		st := &g.seats[s.Owner]
		st.known[s.Index] = cards[i]
		n := 0
		for _, k := range st.known {
			if k == cards[i] {
				n++
			}
		}
		if n > deckCounts[cards[i]] {
			return &engine.Fault{Seat: s.Owner, Err: engine.Illegal("opened %d %s cards, the deck holds %d", n, cards[i], deckCounts[cards[i]])}
		}
	}
	return nil
}

// checkJoinable faults the owner of a task-force card whose opening shows it
// could never have joined a task force.
func checkJoinable(s engine.Slot, c Card) error {
	if !c.CanJoin() {
		return &engine.Fault{Seat: s.Owner, Err: engine.Illegal("%v in a task force is %s, which cannot join a task force", s, withArticle(c))}
	}
	return nil
}

// applyOpen takes the openings of a NeedOpen: a command's reveal, a battle's
// reveal or the end-of-match reveal.
func (g *Game) applyOpen(need engine.Need, opened []engine.Opened) ([]engine.Event, error) {
	cards, err := g.openedCards(need.Open, opened)
	if err != nil {
		return nil, err
	}
	if err := g.learn(need.Open, cards); err != nil {
		return nil, err
	}
	switch g.phase {
	case PhaseReveal, PhaseBattle:
		for i, s := range need.Open {
			if err := checkJoinable(s, cards[i]); err != nil {
				return nil, err
			}
		}
		ev := []engine.Event{engine.Eventf(need.Seat, "reveal", "%s reveals %s", need.Seat, cardList(cards))}
		if g.phase == PhaseReveal {
			g.reveal = nil
			g.phase = PhasePlay
			return ev, nil
		}
		g.battle.step++
		if g.battle.step == stepFight {
			g.startFight()
		}
		return ev, nil
	case PhaseFinal:
		return nil, g.checkFinal(need.Seat)
	}
	return nil, engine.Illegal("no opening expected in phase %s", g.phase)
}

// checkFinal checks a seat's whole deck once every leaf is open: the
// multiset must equal the deck list and no task force may hold a card that
// cannot join one.
func (g *Game) checkFinal(s engine.Seat) error {
	st := &g.seats[s]
	var counts [numCards]int
	for _, c := range st.known {
		counts[c]++
	}
	if counts != deckCounts {
		return &engine.Fault{Seat: s, Err: engine.Illegal("%s's deck is not the fleet deck list: %v", s, counts)}
	}
	for _, tf := range st.forces {
		for _, leaf := range tf {
			if err := checkJoinable(FleetSlot(s, leaf), st.known[leaf]); err != nil {
				return err
			}
		}
	}
	return nil
}

// finalCheckDone moves the end-of-match reveal on to the next seat, or ends
// the match when both decks are open.
func (g *Game) finalCheckDone(ev []engine.Event) []engine.Event {
	if g.turn == 0 {
		g.turn = 1
		return ev
	}
	g.phase, g.turn = PhaseOver, engine.NoSeat
	return append(ev, engine.Event{Seat: engine.NoSeat, Kind: "verified", Text: "both fleet decks revealed and checked"})
}

// cardList formats cards for an event.
func cardList(cs []Card) string {
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += ", "
		}
		s += c.String()
	}
	return s
}

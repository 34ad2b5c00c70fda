package air

import "fmt"

// CardKind is the type of a Navigation card.
type CardKind int

// The three kinds of Navigation card (text).
const (
	Standard CardKind = iota
	Wingman
	Disruption
)

// String names the kind.
func (k CardKind) String() string {
	switch k {
	case Standard:
		return "standard"
	case Wingman:
		return "wingman"
	case Disruption:
		return "disruption"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Turn is the direction a maneuver flies relative to the plane's heading.
type Turn int

// The three maneuvers (house: a bank turns the plane 45° and it flies along
// its new heading).
const (
	Straight Turn = iota
	BankLeft
	BankRight
)

// String names the maneuver.
func (t Turn) String() string {
	switch t {
	case Straight:
		return "straight"
	case BankLeft:
		return "bank left"
	case BankRight:
		return "bank right"
	}
	return fmt.Sprintf("turn(%d)", int(t))
}

// Maneuver is a move printed on a card: which way and how many black dice.
type Maneuver struct {
	Turn Turn
	Dice int
}

// String describes the maneuver, such as "bank right, 4 dice".
func (m Maneuver) String() string { return fmt.Sprintf("%s, %d dice", m.Turn, m.Dice) }

// Card is one Navigation card. Own is the move of the player's own plane;
// Opp is the move of an opposing plane on a Disruption card.
type Card struct {
	Number int
	Kind   CardKind
	Own    Maneuver
	Opp    Maneuver
}

// String describes the card, such as "#12 wingman: straight, 2 dice".
func (c Card) String() string {
	if c.Kind == Disruption {
		return fmt.Sprintf("#%d disruption: own %s; opponent %s", c.Number, c.Own, c.Opp)
	}
	return fmt.Sprintf("#%d %s: %s", c.Number, c.Kind, c.Own)
}

// diceCounts are the black dice a maneuver can roll (DATA.md: 1, 2, 4).
var diceCounts = [3]int{1, 2, 4}

// nine returns the i-th of the nine maneuvers (i mod 9): turns vary
// fastest, then the dice.
func nine(i int) Maneuver {
	i %= 9
	return Maneuver{Turn: Turn(i % 3), Dice: diceCounts[i/3]}
}

// NavCards is the Navigation card table, NavCards[n-1] being card number n
// (DATA.md, house): in every block of five numbers 5k+1..5k+5 the kinds run
// standard, standard, wingman, standard, disruption, so each kind has low,
// middle and high numbers. The 36 standard cards cycle through the nine
// maneuvers four times; the 12 wingman cards are the nine once, then
// straight, left and right with 2 dice; the 12 disruption cards move the own
// plane by maneuver j mod 9 and the opponent by maneuver (5j+4) mod 9, so
// each of the nine appears on both sides.
var NavCards = buildDeck()

func buildDeck() [DeckSize]Card {
	var d [DeckSize]Card
	pattern := [5]CardKind{Standard, Standard, Wingman, Standard, Disruption}
	var ns, nw, nd int
	for i := range d {
		c := Card{Number: i + 1, Kind: pattern[i%5]}
		switch c.Kind {
		case Standard:
			c.Own = nine(ns)
			ns++
		case Wingman:
			if nw < 9 {
				c.Own = nine(nw)
			} else {
				c.Own = Maneuver{Turn: Turn(nw - 9), Dice: 2}
			}
			nw++
		case Disruption:
			c.Own = nine(nd)
			c.Opp = nine(5*nd + 4)
			nd++
		}
		d[i] = c
	}
	return d
}

// CardByNumber returns card number n (1..60).
func CardByNumber(n int) (Card, bool) {
	if n < 1 || n > DeckSize {
		return Card{}, false
	}
	return NavCards[n-1], true
}

package cards

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/salvo-game/salvo/engine"
)

// Action is what a move does.
type Action uint8

// The actions of a move. The first group answers the turn's play need; the
// last two answer the start-of-turn PT Boat need.
const (
	NoAction     Action = iota
	Tap                 // play a white or red peg card on a facedown enemy coordinate card (Pos)
	Attack              // play a peg card on a revealed enemy ship (Ship)
	PlaceShield         // play a Shield on one of your revealed ships (Ship)
	DiscardWhite        // play "Discard white peg cards": discard the white peg cards in Discard
	PlayTwo             // play "Play 2 more cards"
	Repair              // play "Repair a ship": remove peg card Peg from your ship Ship, then play a card
	Draw3               // play "Draw 3 cards, then play one"
	DiscardDead         // discard a card that has no legal use (house)
	PTRepair            // PT Boat power: remove peg card Peg from your ship Ship
	Skip                // decline the PT Boat repair
	numActions
)

var actionNames = [...]string{"none", "tap", "attack", "shield", "discard-white", "play2", "repair", "draw3", "discard-dead", "pt-repair", "skip"}

// String returns the action's name as used in moves.
func (a Action) String() string {
	if int(a) < len(actionNames) {
		return actionNames[a]
	}
	return fmt.Sprintf("action(%d)", uint8(a))
}

// playsCard reports whether the action plays a card from the hand.
func (a Action) playsCard() bool { return a >= Tap && a <= DiscardDead }

// MarshalText encodes the action by name (a value that is no action encodes
// as a name that UnmarshalText rejects).
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// UnmarshalText decodes an action name; an unknown name is illegal input.
func (a *Action) UnmarshalText(b []byte) error {
	for i := Tap; i < numActions; i++ {
		if actionNames[i] == string(b) {
			*a = i
			return nil
		}
	}
	return engine.Illegal("unknown action %q", b)
}

// CardRef names one destruction card of the moving seat: leaf Leaf of its
// deck commitment number Deck ("deck/1" is the first deck, "deck/2" the first
// reshuffle, …).
type CardRef struct {
	Deck int `json:"deck"`
	Leaf int `json:"leaf"`
}

// String returns the commitment name and leaf, such as "deck/1[7]".
func (c CardRef) String() string { return DeckName(c.Deck) + "[" + strconv.Itoa(c.Leaf) + "]" }

// DeckName returns the commitment name of deck number n, such as "deck/2".
// The names of the first decks come from a table: every slot of a card a
// move opens, every hidden slot of the final reveal, is named by one.
func DeckName(n int) string {
	if n >= 0 && n < len(deckNames) {
		return deckNames[n]
	}
	return deckName(n)
}

// deckName writes DeckName(n).
func deckName(n int) string { return "deck/" + strconv.Itoa(n) }

// deckNames holds DeckName of the first numbers, built once.
var deckNames = func() (d [16]string) {
	for n := range d {
		d[n] = deckName(n)
	}
	return d
}()

// parseDeckName is the inverse of DeckName.
func parseDeckName(s string) (int, bool) {
	rest, ok := strings.CutPrefix(s, "deck/")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || DeckName(n) != s {
		return 0, false
	}
	return n, true
}

// Move is one decision of a seat, encoded with [engine.EncodeMove].
//
// Every action but PTRepair and Skip plays Card from the hand and claims its
// Face; the card's leaf is opened with the move and must show that face.
type Move struct {
	Action  Action    `json:"action"`
	Card    CardRef   `json:"card,omitzero"`
	Face    Face      `json:"face,omitzero"`
	Pos     int       `json:"pos,omitzero"`      // Tap: grid position 0..11 (row*4+column) of the opponent
	Ship    Ship      `json:"ship,omitzero"`     // Attack: enemy ship; PlaceShield, Repair, PTRepair: own ship
	Peg     int       `json:"peg,omitzero"`      // Repair, PTRepair: index of the peg card on the ship
	Discard []CardRef `json:"discard,omitempty"` // DiscardWhite: the white peg cards discarded
}

// String returns a short readable form of the move.
//
// It writes what fmt wrote for it (TestMoveStringAsFmt) without fmt: the
// event of every play an audit replays says the move.
func (m Move) String() string {
	var b strings.Builder
	b.Grow(32)
	b.WriteString(m.Action.String())
	if m.Action.playsCard() {
		b.WriteString(" " + m.Face.String() + " " + m.Card.String())
	}
	switch m.Action {
	case Tap:
		b.WriteString(" at " + PosName(m.Pos))
	case Attack, PlaceShield:
		b.WriteString(" on " + m.Ship.String())
	case Repair, PTRepair:
		b.WriteString(" " + m.Ship.String() + " peg " + strconv.Itoa(m.Peg))
	case DiscardWhite:
		// As fmt's %v writes a slice: its elements between brackets.
		b.WriteString(" [")
		for i, c := range m.Discard {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(c.String())
		}
		b.WriteByte(']')
	}
	return b.String()
}

// posNames holds every grid position's label, built once.
var posNames = func() (n [GridSize]string) {
	for p := range n {
		n[p] = fmt.Sprintf("%c%d", 'A'+p/GridCols, p%GridCols+1)
	}
	return n
}()

// PosName returns a grid position's label: row letter A-C and column 1-4, such as "B3".
func PosName(p int) string {
	if p < 0 || p >= GridSize {
		return fmt.Sprintf("pos(%d)", p)
	}
	return posNames[p]
}

// Encode returns the move's wire encoding. It never fails: a field holding
// no valid value encodes as a name that DecodeMove rejects.
func (m Move) Encode() []byte { return engine.MustEncodeMove(m) }

// DecodeMove decodes a move from the network strictly; anything malformed
// is illegal input.
func DecodeMove(b []byte) (Move, error) {
	m, err := decodeFields(b)
	if err != nil {
		return Move{}, fmt.Errorf("decode cards move: %w", err)
	}
	if m.Action == NoAction {
		return Move{}, engine.Illegal("move names no action")
	}
	return m, nil
}

// decodeFields is engine.DecodeMoveWith(b, &m, readMove) with readMove
// inlined, which keeps the move off the heap (engine.DecodeMoveAs;
// FuzzReadMove holds the two to the same result).
func decodeFields(b []byte) (Move, error) {
	if m, ok := engine.ReadMove(b, readMove); ok {
		return m, nil
	}
	return engine.DecodeMoveAs[Move](b)
}

// readMove reads a move's fields as encoding/json sets them (the fast path
// of DecodeMove; FuzzReadMove holds it to engine.DecodeMove).
func readMove(r *engine.MoveReader, m *Move) {
	r.Object(func(key []byte) {
		switch string(key) {
		case "action":
			r.Text(&m.Action)
		case "card":
			m.Card = readCardRef(r)
		case "face":
			r.Text(&m.Face)
		case "pos":
			m.Pos = r.Int()
		case "ship":
			r.Text(&m.Ship)
		case "peg":
			m.Peg = r.Int()
		case "discard":
			m.Discard = engine.List(r, readCardRef)
		default:
			r.Fail()
		}
	})
}

func readCardRef(r *engine.MoveReader) CardRef {
	var c CardRef
	r.Object(func(key []byte) {
		switch string(key) {
		case "deck":
			c.Deck = r.Int()
		case "leaf":
			c.Leaf = r.Int()
		default:
			r.Fail()
		}
	})
	return c
}

// slots returns the slots a move by seat opens: the played card, then every
// discarded card, in that order.
func (m Move) slots(seat engine.Seat) []engine.Slot {
	if !m.Action.playsCard() {
		return nil
	}
	out := []engine.Slot{cardSlot(seat, m.Card)}
	if m.Action == DiscardWhite {
		for _, c := range m.Discard {
			out = append(out, cardSlot(seat, c))
		}
	}
	return out
}

func cardSlot(seat engine.Seat, c CardRef) engine.Slot {
	return engine.Slot{Owner: seat, Name: DeckName(c.Deck), Index: c.Leaf}
}

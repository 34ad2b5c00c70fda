package oceans

import (
	"github.com/salvo-game/salvo/engine"
)

// MoveKind names what a move does.
type MoveKind string

// The kinds of move.
const (
	// Deploy plays a card from the hand faceup to a task force during the
	// opening deployment (Leaf, Ocean). The leaf is opened with the move.
	Deploy MoveKind = "deploy"
	// Place plays a card from the hand facedown to a task force (Leaf,
	// Ocean). The leaf stays closed.
	Place MoveKind = "place"
	// Discard plays a card faceup to the discard pile and issues its special
	// command (Leaf; Targets: opposing leaves for the Carrier, Fighter Plane,
	// Submarine and Destroyer; Ocean: the ocean a PT Boat blockades). The
	// leaf is opened with the move.
	Discard MoveKind = "discard"
	// Attack declares an attack in an ocean (Ocean), instead of a second card.
	Attack MoveKind = "attack"
	// Zero plays one of the seat's zero-valued cards in a battle (Leaf).
	Zero MoveKind = "zero"
	// Target picks the surface ship a Minefield destroys (Leaf: the ship).
	Target MoveKind = "target"
)

// Move is a player's decision, encoded with [engine.EncodeMove]. Fields a
// kind does not use must be left at zero.
type Move struct {
	Kind    MoveKind `json:"kind"`
	Leaf    int      `json:"leaf"`
	Ocean   Ocean    `json:"ocean"`
	Targets []int    `json:"targets,omitempty"`
}

// Encode returns the move's wire encoding.
func (m Move) Encode() []byte { return engine.MustEncodeMove(m) }

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
		case "kind":
			m.Kind = MoveKind(r.String())
		case "leaf":
			m.Leaf = r.Int()
		case "ocean":
			m.Ocean = Ocean(r.Int())
		case "targets":
			m.Targets = engine.List(r, engine.ReadInt)
		default:
			r.Fail()
		}
	})
}

// DecodeMove decodes a move from the network strictly, and checks that it
// only sets the fields its kind uses. Errors wrap [engine.ErrIllegal].
func DecodeMove(b []byte) (Move, error) {
	m, err := decodeFields(b)
	if err != nil {
		return Move{}, err
	}
	switch m.Kind {
	case Deploy, Place:
		if len(m.Targets) != 0 {
			return Move{}, engine.Illegal("%s move takes no targets", m.Kind)
		}
	case Discard:
		if len(m.Targets) > CarrierReveals {
			return Move{}, engine.Illegal("discard names %d targets, at most %d", len(m.Targets), CarrierReveals)
		}
	case Attack:
		if m.Leaf != 0 || len(m.Targets) != 0 {
			return Move{}, engine.Illegal("attack move takes only an ocean")
		}
	case Zero, Target:
		if m.Ocean != 0 || len(m.Targets) != 0 {
			return Move{}, engine.Illegal("%s move takes only a leaf", m.Kind)
		}
	default:
		return Move{}, engine.Illegal("unknown move kind %q", m.Kind)
	}
	if m.Leaf < 0 || m.Leaf >= DeckSize {
		return Move{}, engine.Illegal("leaf %d out of range 0..%d", m.Leaf, DeckSize-1)
	}
	if !m.Ocean.Valid() {
		return Move{}, engine.Illegal("ocean %d out of range 0..%d", int(m.Ocean), NumOceans-1)
	}
	for _, t := range m.Targets {
		if t < 0 || t >= DeckSize {
			return Move{}, engine.Illegal("target leaf %d out of range 0..%d", t, DeckSize-1)
		}
	}
	return m, nil
}

package sea

import (
	"github.com/salvo-game/salvo/engine"
)

// Piece is a piece a player places at setup.
type Piece string

// The pieces placed at setup.
const (
	PieceCarrier   Piece = "carrier"
	PieceDestroyer Piece = "destroyer"
	PieceShallow   Piece = "shallow"
)

// Move kinds: the Kind field of a Move.
const (
	// KindPlace places the next piece: Piece, Cell (a ship's bow, a
	// shallow's top-left space) and Facing (a ship's heading).
	KindPlace = "place"
	// KindHarpoon picks which Harpoon in the water moves next (step 1).
	KindHarpoon = "harpoon"
	// KindPath moves the rolled Harpoon along Path (steps 1 and 6).
	KindPath = "path"
	// KindReturn returns Fighters to the carrier before the scramble roll.
	KindReturn = "return"
	// KindScramble flies the scrambled fighters (Flights).
	KindScramble = "scramble"
	// KindMove moves Destroyer along Path (the successive bow spaces).
	KindMove = "move"
	// KindFire fires Destroyer at Target.
	KindFire = "fire"
	// KindDone ends an optional step, or declines a Sidewinder.
	KindDone = "done"
	// KindRemove names the Fighters a carrier hit removes from the deck.
	KindRemove = "remove"
	// KindFighter picks the Fighter that dogfights next.
	KindFighter = "fighter"
	// KindSidewinder launches the dogfighting fighter's Sidewinder: Use
	// UsePlus, or UseReroll with Die the index of the die to roll again.
	KindSidewinder = "sidewinder"
	// KindLaunch launches Fighter's Harpoon (step 6).
	KindLaunch = "launch"
)

// Sidewinder uses.
const (
	UsePlus   = "plus"   // add one to the highest die
	UseReroll = "reroll" // roll one die again
)

// Target kinds: what a destroyer fires at.
const (
	TargetFighter   = "fighter"
	TargetDestroyer = "destroyer"
	TargetCarrier   = "carrier"
	TargetHarpoon   = "harpoon"
)

// Target is what a destroyer fires at: an enemy fighter (Index: fighter),
// destroyer (Index: destroyer), the enemy carrier, or an enemy Harpoon in the
// water (Index: its ID).
type Target struct {
	Kind  string `json:"kind"`
	Index int    `json:"index,omitempty"`
}

// Flight is one fighter's scramble: the die it uses (an index into the
// scramble roll) and the spaces it flies through, the last being where it
// stops. A fighter taking off from the deck starts its path on the launch
// space in front of the carrier's bow, which counts as its first space.
type Flight struct {
	Fighter int    `json:"fighter"`
	Die     int    `json:"die"`
	Path    []Cell `json:"path"`
}

// Move is every decision a player sends, in the transcript's JSON form. Only
// the fields of its Kind may be set (see the Kind constants).
type Move struct {
	Kind      string   `json:"kind"`
	Piece     Piece    `json:"piece,omitempty"`
	Cell      *Cell    `json:"cell,omitempty"`
	Facing    *Dir     `json:"facing,omitempty"`
	Harpoon   int      `json:"harpoon,omitempty"`
	Path      []Cell   `json:"path,omitempty"`
	Fighters  []int    `json:"fighters,omitempty"`
	Flights   []Flight `json:"flights,omitempty"`
	Destroyer int      `json:"destroyer,omitempty"`
	Target    *Target  `json:"target,omitempty"`
	Fighter   int      `json:"fighter,omitempty"`
	Use       string   `json:"use,omitempty"`
	Die       int      `json:"die,omitempty"`
}

// maxListLen bounds every list in a move, far above any legal length, so a
// hostile move cannot make the engine loop long.
const maxListLen = 64

// DecodeMove decodes a move strictly (unknown fields, trailing data and
// over-long lists are errors wrapping engine.ErrIllegal).
func DecodeMove(b []byte) (Move, error) {
	var m Move
	if err := engine.DecodeMoveWith(b, &m, readMove); err != nil {
		return Move{}, err
	}
	if len(m.Path) > maxListLen || len(m.Fighters) > maxListLen || len(m.Flights) > maxListLen {
		return Move{}, engine.Illegal("move lists too long")
	}
	for _, f := range m.Flights {
		if len(f.Path) > maxListLen {
			return Move{}, engine.Illegal("flight path too long")
		}
	}
	return m, nil
}

// readMove reads a move's fields as encoding/json sets them (the fast path
// of DecodeMove; FuzzReadMove holds it to engine.DecodeMove).
func readMove(r *engine.MoveReader, m *Move) {
	r.Object(func(key []byte) {
		switch string(key) {
		case "kind":
			m.Kind = r.String()
		case "piece":
			m.Piece = Piece(r.String())
		case "cell":
			m.Cell = new(Cell)
			r.Text(m.Cell)
		case "facing":
			m.Facing = new(Dir)
			r.Text(m.Facing)
		case "harpoon":
			m.Harpoon = r.Int()
		case "path":
			m.Path = engine.List(r, engine.ReadText[Cell])
		case "fighters":
			m.Fighters = engine.List(r, engine.ReadInt)
		case "flights":
			m.Flights = engine.List(r, readFlight)
		case "destroyer":
			m.Destroyer = r.Int()
		case "target":
			m.Target = new(Target)
			r.Object(func(key []byte) {
				switch string(key) {
				case "kind":
					m.Target.Kind = r.String()
				case "index":
					m.Target.Index = r.Int()
				default:
					r.Fail()
				}
			})
		case "fighter":
			m.Fighter = r.Int()
		case "use":
			m.Use = r.String()
		case "die":
			m.Die = r.Int()
		default:
			r.Fail()
		}
	})
}

func readFlight(r *engine.MoveReader) Flight {
	var f Flight
	r.Object(func(key []byte) {
		switch string(key) {
		case "fighter":
			f.Fighter = r.Int()
		case "die":
			f.Die = r.Int()
		case "path":
			f.Path = engine.List(r, engine.ReadText[Cell])
		default:
			r.Fail()
		}
	})
	return f
}

// Encode returns the move's transcript encoding.
func (m Move) Encode() []byte { return engine.MustEncodeMove(m) }

// PlaceMove places piece with its bow (or top-left space) at c, heading
// facing (ignored for shallows).
func PlaceMove(piece Piece, c Cell, facing Dir) Move {
	m := Move{Kind: KindPlace, Piece: piece, Cell: &c}
	if piece != PieceShallow {
		m.Facing = &facing
	}
	return m
}

// HarpoonMove picks Harpoon id to move next.
func HarpoonMove(id int) Move { return Move{Kind: KindHarpoon, Harpoon: id} }

// PathMove moves the rolled Harpoon along path.
func PathMove(path []Cell) Move { return Move{Kind: KindPath, Path: path} }

// ReturnMove returns fighters to the carrier.
func ReturnMove(fighters []int) Move { return Move{Kind: KindReturn, Fighters: fighters} }

// ScrambleMove flies the given flights.
func ScrambleMove(flights []Flight) Move { return Move{Kind: KindScramble, Flights: flights} }

// DestroyerMove moves destroyer d through the bow spaces path.
func DestroyerMove(d int, path []Cell) Move { return Move{Kind: KindMove, Destroyer: d, Path: path} }

// FireMove fires destroyer d at t.
func FireMove(d int, t Target) Move { return Move{Kind: KindFire, Destroyer: d, Target: &t} }

// DoneMove ends an optional step or declines a Sidewinder.
func DoneMove() Move { return Move{Kind: KindDone} }

// RemoveMove names the deck fighters a carrier hit removes.
func RemoveMove(fighters []int) Move { return Move{Kind: KindRemove, Fighters: fighters} }

// FighterMove picks the fighter that dogfights next.
func FighterMove(f int) Move { return Move{Kind: KindFighter, Fighter: f} }

// SidewinderPlus adds one to the dogfighting fighter's highest die.
func SidewinderPlus() Move { return Move{Kind: KindSidewinder, Use: UsePlus} }

// SidewinderReroll rolls die i of the dogfighting fighter again.
func SidewinderReroll(i int) Move { return Move{Kind: KindSidewinder, Use: UseReroll, Die: i} }

// LaunchMove launches fighter f's Harpoon.
func LaunchMove(f int) Move { return Move{Kind: KindLaunch, Fighter: f} }

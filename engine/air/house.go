package air

// House values and the numbers DATA.md fixes, in one place. The package doc
// lists them; changing one here changes the game without touching the rules
// code.
const (
	// Columns and Rows size the board (DATA.md: 9 x 12, wrapping on every
	// edge). Column x is labelled 15 + 10x, row y is labelled 10 + 10y.
	Columns = 9
	Rows    = 12

	// HandSize is the hand every squadron leader refills to (text).
	HandSize = 7

	// DeckSize is the number of Navigation cards, numbered 1..DeckSize (text).
	DeckSize = 60

	// DeckName names the first shuffle of the Navigation deck; the k-th
	// reshuffle of the discard pile (house) is named DeckName + "/" + k+1.
	DeckName = "nav"

	// F35Missiles and F22Missiles are the starting missile loads (text).
	F35Missiles = 5
	F22Missiles = 6

	// DamageDice is the number of black dice rolled for damage (text).
	DamageDice = 4
	// MissileDice and CannonDice are the red dice of each weapon (text).
	MissileDice = 3
	CannonDice  = 2

	// MaxRounds ends a match that has not ended by itself as a draw (house:
	// the rules have no limit; cannons never run out, so a match always ends
	// in practice, but a transcript must be finite).
	MaxRounds = 200
)

// BlackFaces and RedFaces map a joint roll value in [0, 6) to a die face
// (DATA.md, inferred from the captions).
var (
	BlackFaces = [6]int{1, 1, 2, 2, 3, 3}
	RedFaces   = [6]int{0, 0, 2, 2, 5, 5}
)

// Location is a part of a plane on the squadron board.
type Location int

// The damage locations.
const (
	FuelTank Location = iota
	Tail
	Wings
	Engine
	Cockpit
	numLocations
)

var locationNames = [numLocations]string{"fuel tank", "tail", "wings", "engine", "cockpit"}

// String names the location.
func (l Location) String() string {
	if l >= 0 && l < numLocations {
		return locationNames[l]
	}
	return "nowhere"
}

// DamageChart maps the sum of the four black damage dice (4..12) to the
// location hit (DATA.md: engine 10-11 text; the rest house).
func DamageChart(sum int) Location {
	switch {
	case sum <= 4:
		return FuelTank
	case sum <= 6:
		return Tail
	case sum <= 9:
		return Wings
	case sum <= 11:
		return Engine
	default:
		return Cockpit
	}
}

// ShotDownAt returns the number of hits at loc that shoots down a plane of
// kind k (text).
func ShotDownAt(k PlaneKind, loc Location) int {
	switch loc {
	case FuelTank, Cockpit:
		return 1
	case Tail, Engine:
		return 2
	case Wings:
		if k == F35 {
			return 3
		}
		return 4
	}
	return 1
}

// Squadron names the squadron of each seat, in seat order (the 2-player game
// is Blue against Fire, text).
var Squadron = [4]string{"Blue", "Fire", "Eagle", "Tiger"}

// Team returns the team of a seat in the team game (text: Fire and Eagle
// against Blue and Tiger): 0 for Blue and Tiger, 1 for Fire and Eagle.
func Team(seat int) int {
	if seat == 1 || seat == 2 {
		return 1
	}
	return 0
}

// startSpaces gives each seat's start spaces (F-35 first) and heading
// (house: two spaces mid-edge facing inward; Blue bottom, Fire top, Eagle
// left, Tiger right).
var startSpaces = [4]struct {
	f35, f22 Pos
	heading  Heading
}{
	{Pos{3, 0}, Pos{5, 0}, North},
	{Pos{5, 11}, Pos{3, 11}, South},
	{Pos{0, 6}, Pos{0, 5}, East},
	{Pos{8, 5}, Pos{8, 6}, West},
}
